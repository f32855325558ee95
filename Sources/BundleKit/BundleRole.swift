/// The role a bundle plays in the simulated device (<doc:Design> "The manifest").
///
/// The runtime roles of <doc:Rules> "The rest of the extension family" each run as their own kind of process: `complication` is a watch-side widget
/// extension (it runs on the watch, `Watch/W.app/PlugIns/`), `notification` a notification service extension, `share`
/// a share or action extension, `clip` an App Clip (`AppClips/C.app`). `extension` is any other app extension.
public enum BundleRole: String, Codable, Sendable, CaseIterable {
    case host, widget, watch, intent, complication, notification, share, clip, `extension`
}
