import BundleKit
import Foundation
import LockstepSystem

/// What a `productType` builds.
package struct ProductKind {
    package var isApplication: Bool
    package var isWatchApp: Bool
    package var packageType: String
    package var wrapperExtension: String

    package init(_ productType: String) {
        let type = ASCII.replacing("com.apple.product-type.", with: "", in: productType)
        isApplication = type == "application" || type.hasPrefix("application.")
        isWatchApp = type == "application.watchapp" || type == "application.watchapp2"
        if isApplication {
            (packageType, wrapperExtension) = ("APPL", "app")
        } else if ASCII.contains("extension", in: type) {
            (packageType, wrapperExtension) = ("XPC!", "appex")
        } else if type.hasPrefix("framework") {
            (packageType, wrapperExtension) = ("FMWK", "framework")
        } else {
            (packageType, wrapperExtension) = ("BNDL", "bundle")
        }
    }
}
