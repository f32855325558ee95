import LockstepSystem
import Testing

/// A library loaded at run time: one that is there loads (again, if the process has it already); one that is not is
/// a sentence naming it with the dynamic linker's reason, never a crash.
@Suite struct DynamicLibraryTests {
    @Test func aLibraryThatIsThereLoads() throws {
        try DynamicLibrary.loadGlobally("libFoundation.so")
    }

    @Test func aMissingLibraryIsASentenceNamingIt() {
        #expect { try DynamicLibrary.loadGlobally("libLockstepNoSuchLibrary.so") } throws: { error in
            let description = "\(error)"
            return (error as? SystemError)?.code == .load(reason: (error as? SystemError)?.reason ?? "")
                && description.hasPrefix("Could not load the library 'libLockstepNoSuchLibrary.so': ")
                && description.contains("No such file") && description.hasSuffix(".")
        }
    }
}
