// The compiler plug-in behind Lockstep's macros (`#Preview`, SwiftData's `@Model`): an executable the compiler starts
// and talks to on stdin and stdout, without swift-syntax (see Lockstep.docc/Design.md, "Macros").
PluginConnection.serve(macros: [
    "PreviewMacro": PreviewMacro.expand,
    "ModelMacro": ModelMacro.expand,
    "PersistedPropertyMacro": PersistedPropertyMacro.expand,
    "MarkerMacro": MarkerMacro.expand,
])
