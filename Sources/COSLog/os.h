// Empty: the clang half of the module `os` (Sources/COSLog/module.modulemap). Its API is the Swift module `os`.
