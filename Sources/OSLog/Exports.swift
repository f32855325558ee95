// Apple's OSLog framework re-exports os: `import OSLog` gives Logger, OSLog and os_log.
@_exported import os
