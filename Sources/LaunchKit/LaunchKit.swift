// LaunchKit — see DESIGN.md for what this module simulates. Filled in by its issue.
