import Foundation
import LockstepSystem

extension XcodeProjectInput {
    /// Writes a realistic project with `targets` targets into the folder `directory`: an app embedding
    /// `targets - 1` widget extensions, versions set at project level and read by the Info.plists through
    /// `$(CURRENT_PROJECT_VERSION)` / `$(MARKETING_VERSION)`. For tests and `lockstep bench`.
    /// - Returns: the path of the `.xcodeproj` written (`directory/Sample.xcodeproj`).
    /// - Throws: `SystemError` when a file cannot be written.
    @discardableResult
    public static func generateSampleProject(at directory: String, targets: Int) throws -> String {
        let count = max(targets, 1)
        var serial = 0
        func id() -> String { serial += 1; return String(format: "5A%022lX", serial) }

        let project = id(), mainGroup = id(), projectList = id(), projectDebug = id(), projectRelease = id()
        let embedPhase = id()
        var objects: [String] = []
        var targetIDs: [String] = []
        var productIDs: [String] = []
        var embedFiles: [String] = []

        for index in 0..<count {
            let isApp = index == 0
            let name = isApp ? "Sample" : String(format: "Widget%03d", index)
            let target = id(), product = id(), list = id(), debug = id(), release = id()
            targetIDs.append(target)
            productIDs.append(product)
            let wrapper = isApp ? "app" : "appex"
            let type = isApp ? "com.apple.product-type.application" : "com.apple.product-type.app-extension"
            let bundleID = isApp ? "com.example.sample" : "com.example.sample.\(name.lowercased())"
            let plist = isApp ? "Sample/Info.plist" : "Widget/Info.plist"
            objects.append("\t\t\(product) /* \(name).\(wrapper) */ = {isa = PBXFileReference; explicitFileType = \"wrapper.\(isApp ? "application" : "app-extension")\"; includeInIndex = 0; path = \(name).\(wrapper); sourceTree = BUILT_PRODUCTS_DIR; };")
            for (config, configName) in [(debug, "Debug"), (release, "Release")] {
                objects.append("""
                \t\t\(config) /* \(configName) */ = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbuildSettings = {
                \t\t\t\tINFOPLIST_FILE = \(plist);
                \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = \(bundleID);
                \t\t\t\tPRODUCT_NAME = "$(TARGET_NAME)";
                \t\t\t};
                \t\t\tname = \(configName);
                \t\t};
                """)
            }
            objects.append("\t\t\(list) = {isa = XCConfigurationList; buildConfigurations = (\(debug), \(release), ); defaultConfigurationName = Release; };")
            var phases = ""
            if isApp { phases = "\(embedPhase), " } else {
                let file = id()
                embedFiles.append(file)
                objects.append("\t\t\(file) /* \(name).appex in Embed Foundation Extensions */ = {isa = PBXBuildFile; fileRef = \(product) /* \(name).appex */; settings = {ATTRIBUTES = (RemoveHeadersOnCopy, ); }; };")
            }
            objects.append("""
            \t\t\(target) /* \(name) */ = {
            \t\t\tisa = PBXNativeTarget;
            \t\t\tbuildConfigurationList = \(list);
            \t\t\tbuildPhases = (\(phases));
            \t\t\tname = \(name);
            \t\t\tproductName = \(name);
            \t\t\tproductReference = \(product) /* \(name).\(wrapper) */;
            \t\t\tproductType = "\(type)";
            \t\t};
            """)
        }
        objects.append("\t\t\(embedPhase) /* Embed Foundation Extensions */ = {isa = PBXCopyFilesBuildPhase; buildActionMask = 2147483647; dstPath = \"\"; dstSubfolderSpec = 13; files = (\(embedFiles.map { $0 + ", " }.joined())); name = \"Embed Foundation Extensions\"; runOnlyForDeploymentPostprocessing = 0; };")
        for (config, configName) in [(projectDebug, "Debug"), (projectRelease, "Release")] {
            objects.append("""
            \t\t\(config) /* \(configName) */ = {
            \t\t\tisa = XCBuildConfiguration;
            \t\t\tbuildSettings = {
            \t\t\t\tCURRENT_PROJECT_VERSION = 42;
            \t\t\t\tMARKETING_VERSION = 1.4.0;
            \t\t\t\tSDKROOT = iphoneos;
            \t\t\t};
            \t\t\tname = \(configName);
            \t\t};
            """)
        }
        objects.append("\t\t\(projectList) = {isa = XCConfigurationList; buildConfigurations = (\(projectDebug), \(projectRelease), ); defaultConfigurationName = Release; };")
        objects.append("\t\t\(mainGroup) = {isa = PBXGroup; children = (); sourceTree = \"<group>\"; };")
        objects.append("""
        \t\t\(project) /* Project object */ = {
        \t\t\tisa = PBXProject;
        \t\t\tbuildConfigurationList = \(projectList);
        \t\t\tcompatibilityVersion = "Xcode 14.0";
        \t\t\tmainGroup = \(mainGroup);
        \t\t\tobjectVersion = 56;
        \t\t\ttargets = (\(targetIDs.map { $0 + ", " }.joined()));
        \t\t};
        """)
        let pbxproj = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n"
            + objects.joined(separator: "\n") + "\n\t};\n\trootObject = \(project) /* Project object */;\n}\n"

        let xcodeproj = directory + "/Sample.xcodeproj"
        try AtomicFile.createDirectories(xcodeproj)
        try AtomicFile.createDirectories(directory + "/Sample")
        try AtomicFile.createDirectories(directory + "/Widget")
        try AtomicFile.write(pbxproj, to: xcodeproj + "/project.pbxproj")
        try AtomicFile.write(samplePlist(extensionPoint: nil), to: directory + "/Sample/Info.plist")
        try AtomicFile.write(samplePlist(extensionPoint: "com.apple.widgetkit-extension"), to: directory + "/Widget/Info.plist")
        return xcodeproj
    }

    private static func samplePlist(extensionPoint: String?) -> String {
        let extensionKeys = extensionPoint.map {
            "\t<key>NSExtension</key>\n\t<dict>\n\t\t<key>NSExtensionPointIdentifier</key>\n\t\t<string>\($0)</string>\n\t</dict>\n"
        } ?? ""
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key>
        \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        \t<key>CFBundleExecutable</key>
        \t<string>$(EXECUTABLE_NAME)</string>
        \t<key>CFBundlePackageType</key>
        \t<string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string>
        \t<key>CFBundleShortVersionString</key>
        \t<string>$(MARKETING_VERSION)</string>
        \t<key>CFBundleVersion</key>
        \t<string>$(CURRENT_PROJECT_VERSION)</string>
        \(extensionKeys)</dict>
        </plist>

        """
    }
}
