import Foundation

/// A project laid out like real iOS repositories (<doc:ReadingProjects> "Reading real projects"): versions at project
/// level, an xcconfig chain with `#include`, `#include?` and `$(inherited)`, Info.plists that use variables,
/// a widget that overrides CURRENT_PROJECT_VERSION, a single-target watch app with a generated Info.plist and
/// `WKCompanionAppBundleIdentifier = $(PARENT_BUNDLE_ID)`, its own widget, an ExtensionKit App Intents
/// extension, and targets that are not embedded bundles (a framework, unit tests, a Mac Catalyst-only one,
/// an App Clip).
enum HabitsFixture {
    static let project = ProjectFixture(
        projectSettings: [
            "CURRENT_PROJECT_VERSION": "289",
            "SDKROOT": "iphoneos",
            "DEVELOPMENT_TEAM[sdk=iphoneos*]": "ABCDE12345",
        ],
        projectXcconfig: "Config/Base.xcconfig",
        targets: [
            .init(name: "Habits", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "Habits/Info.plist",
                "PRODUCT_BUNDLE_IDENTIFIER": "$(PRODUCT_BUNDLE_IDENTIFIER_BASE)",
                "PRODUCT_NAME": "$(TARGET_NAME)",
                "CODE_SIGN_ENTITLEMENTS": "Habits/Habits.entitlements",
            ], embeds: [
                .init(target: "HabitsWidget", spec: 13),
                .init(target: "HabitsWatch", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch"),
                .init(target: "HabitsIntents", spec: 16, dstPath: "$(EXTENSIONS_FOLDER_PATH)"),
                .init(target: "HabitsCore", spec: 10),
                .init(target: "HabitsMacWidget", spec: 13, platformFilter: "maccatalyst"),
                .init(target: "HabitsClip", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/AppClips"),
            ]),
            .init(name: "HabitsClip", productType: "com.apple.product-type.application.on-demand-install-capable", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "$(PRODUCT_BUNDLE_IDENTIFIER_BASE).Clip",
            ]),
            .init(name: "HabitsWidget", productType: "com.apple.product-type.app-extension", settings: [
                "CURRENT_PROJECT_VERSION": "1",
                "INFOPLIST_FILE": "HabitsWidget/Info.plist",
                "PRODUCT_BUNDLE_IDENTIFIER": "$(PRODUCT_BUNDLE_IDENTIFIER_BASE).$(WIDGET_SUFFIX)",
                "CODE_SIGN_ENTITLEMENTS": "HabitsWidget/HabitsWidget.entitlements",
            ], xcconfig: "Config/Widget.xcconfig"),
            .init(name: "HabitsWatch", productType: "com.apple.product-type.application", settings: [
                "SDKROOT": "watchos",
                "GENERATE_INFOPLIST_FILE": "YES",
                "PARENT_BUNDLE_ID": "$(PRODUCT_BUNDLE_IDENTIFIER_BASE)",
                "PRODUCT_BUNDLE_IDENTIFIER": "$(PARENT_BUNDLE_ID).watchkitapp",
                "INFOPLIST_KEY_WKCompanionAppBundleIdentifier": "$(PARENT_BUNDLE_ID)",
                "INFOPLIST_KEY_CFBundleDisplayName": "Habits",
                "PRODUCT_NAME[sdk=watchos*]": "HabitsWatch",
                "PRODUCT_NAME[sdk=iphoneos*]": "WrongPlatform",
            ], embeds: [.init(target: "HabitsWatchWidget", spec: 13)]),
            .init(name: "HabitsWatchWidget", productType: "com.apple.product-type.app-extension", settings: [
                "SDKROOT": "watchos",
                "GENERATE_INFOPLIST_FILE": "YES",
                "INFOPLIST_FILE": "HabitsWatchWidget/Info.plist",
                "PRODUCT_BUNDLE_IDENTIFIER": "$(PRODUCT_BUNDLE_IDENTIFIER_BASE).watchkitapp.widget",
            ]),
            .init(name: "HabitsIntents", productType: "com.apple.product-type.extensionkit-extension", settings: [
                "GENERATE_INFOPLIST_FILE": "YES",
                "INFOPLIST_FILE": "HabitsIntents/Info.plist",
                "PRODUCT_BUNDLE_IDENTIFIER": "$(PRODUCT_BUNDLE_IDENTIFIER_BASE).intents",
                "CODE_SIGN_ENTITLEMENTS": "HabitsIntents/HabitsIntents.entitlements",
            ]),
            .init(name: "HabitsCore", productType: "com.apple.product-type.framework", settings: [
                "CURRENT_PROJECT_VERSION": "3", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.core",
            ]),
            .init(name: "HabitsMacWidget", productType: "com.apple.product-type.app-extension", settings: [
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.mac.widget",
            ]),
            .init(name: "HabitsTests", productType: "com.apple.product-type.bundle.unit-test", settings: [
                "CURRENT_PROJECT_VERSION": "7", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits.tests",
            ]),
        ])

    static let files: [String: String] = [
        "Habits.xcodeproj/project.pbxproj": project.pbxproj(),
        "Config/Shared.xcconfig": """
            // Shared by every configuration.
            MARKETING_VERSION = 2.0
            BUNDLE_PREFIX = com.example
            CURRENT_PROJECT_VERSION = 1 // the project's pbxproj value wins over this
            OTHER_SWIFT_FLAGS = -DSHARED
            """,
        "Config/Base.xcconfig": """
            #include "Shared.xcconfig"
            #include? "Local.xcconfig"

            MARKETING_VERSION = 2.1 // the last definition wins
            OTHER_SWIFT_FLAGS = $(inherited) -DBASE;
            OTHER_SWIFT_FLAGS = $(OTHER_SWIFT_FLAGS) -DMORE
            APP_NAME_SUFFIX[config=Debug] = .debug
            PRODUCT_BUNDLE_IDENTIFIER_BASE = $(BUNDLE_PREFIX).habits$(APP_NAME_SUFFIX)
            """,
        "Config/Widget.xcconfig": "WIDGET_SUFFIX = widget\nOTHER_SWIFT_FLAGS = $(inherited) -DWIDGET",
        "Habits/Info.plist": FixtureTree.plist([
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)",
            "CFBundleExecutable": "$(EXECUTABLE_NAME)",
            "CFBundleName": "$(PRODUCT_NAME)",
            "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)",
            "CFBundlePackageType": "$(PRODUCT_BUNDLE_PACKAGE_TYPE)",
            "CFBundleShortVersionString": "${MARKETING_VERSION}",
            "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
        ]),
        "Habits/Habits.entitlements": FixtureTree.plist([
            "com.apple.security.application-groups": ["group.$(BUNDLE_PREFIX).habits"],
        ]),
        "HabitsWidget/Info.plist": FixtureTree.plist([
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)",
            "CFBundleDisplayName": "$(WIDGET_DISPLAY_NAME)",
            "CFBundlePackageType": "$(PRODUCT_BUNDLE_PACKAGE_TYPE)",
            "CFBundleShortVersionString": "$(MARKETING_VERSION)",
            "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
        ]),
        "HabitsWidget/HabitsWidget.entitlements": FixtureTree.plist([
            "com.apple.security.application-groups": ["group.com.example.habits"],
        ]),
        "HabitsWatchWidget/Info.plist": FixtureTree.plist([
            "CFBundleDisplayName": "Habits",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
        ]),
        "HabitsIntents/Info.plist": FixtureTree.plist([
            "EXAppExtensionAttributes": ["EXExtensionPointIdentifier": "com.apple.appintents-extension"],
        ]),
        "HabitsIntents/HabitsIntents.entitlements": FixtureTree.plist([
            "com.apple.security.application-groups": ["group.$(BUNDLE_PREFIX:lower).habits"],
            // Signing-time prefixes stay symbolic (rule `group.shared`).
            "keychain-access-groups": ["$(AppIdentifierPrefix)com.example.habits"],
        ]),
    ]
}
