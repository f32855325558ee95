// Empty: the clang submodule `os.log`, so `import os.log` resolves. Its API is the Swift module `os`.
