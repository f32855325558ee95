// Tests for this target are added by its issue.
