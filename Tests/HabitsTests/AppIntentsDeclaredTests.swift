import AppGroupKit
@testable import AppIntents
import Foundation
import LockstepSystem
import SwiftUI
import Testing

/// App Intents as Apple declares them (issue 45, item 3): the intents an executable links are found as Apple's build
/// step finds them, a result's snippet view is drawn, an App Shortcut phrase names a parameter, and a query's or
/// provider's options come in sections with a prompt.
@Suite("AppIntents: linked intents, snippets, phrase parameters, item collections")
struct AppIntentsDeclaredTests {
    struct Wallet: AppEntity {
        static var typeDisplayRepresentation: TypeDisplayRepresentation { "Wallet" }
        static let defaultQuery = WalletQuery()
        let id: String
        let balance: Int
        var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(id.capitalized)", subtitle: "\(balance) €") }
    }

    struct WalletQuery: EntityQuery {
        static let all = [Wallet(id: "savings", balance: 120), Wallet(id: "travel", balance: 45), Wallet(id: "old", balance: 0)]
        func entities(for identifiers: [String]) async throws -> [Wallet] { Self.all.filter { identifiers.contains($0.id) } }
        /// Apple's sectioned form: `Item`s in `ItemSection`s with a prompt.
        func suggestedEntities() async throws -> IntentItemCollection<Wallet> {
            ItemCollection(promptLabel: "Pick a wallet", sections: [
                ItemSection("In use", items: Self.all.filter { $0.balance > 0 }.map { Item($0, title: "\($0.id.capitalized)", subtitle: "\($0.balance) €") }),
                ItemSection("Empty", items: Self.all.filter { $0.balance == 0 }),
            ])
        }
    }

    enum Period: String, AppEnum {
        case week, month
        static var typeDisplayRepresentation: TypeDisplayRepresentation { "Period" }
        static var caseDisplayRepresentations: [Period: DisplayRepresentation] { [.week: "This week", .month: "This month"] }
    }

    struct Currencies: DynamicOptionsProvider {
        func results() async throws -> IntentItemCollection<String> {
            IntentItemCollection(promptLabel: "Currency") {
                ItemSection("Common") {
                    "EUR"
                    IntentItem("USD", title: "US dollar")
                }
            }
        }
    }

    struct ShowWallet: AppIntent {
        static let title: LocalizedStringResource = "Show Wallet"
        @Parameter(title: "Wallet") var wallet: Wallet
        @Parameter(title: "Period", default: .week) var period: Period
        @Parameter(title: "Currency", default: "EUR", optionsProvider: Currencies()) var currency: String

        @MainActor
        func perform() async throws -> some IntentResult & ReturnsValue<Int> & ProvidesDialog & ShowsSnippetView {
            .result(value: wallet.balance, dialog: "\(wallet.id.capitalized) has \(wallet.balance) \(currency).", view: VStack {
                Text(wallet.id.capitalized).font(.headline)
                Text("\(wallet.balance) \(currency) · \(period == .week ? "this week" : "this month")")
            })
        }
    }

    struct CompareWallets: AppIntent {
        static let title: LocalizedStringResource = "Compare Wallets"
        @Parameter(title: "Wallets", size: 2) var wallets: [Wallet]
        @Parameter(title: "Pinned", size: [.systemSmall: IntentCollectionSize(exactly: 1), .systemLarge: IntentCollectionSize(min: 2, max: 3)])
        var pinned: [Wallet]?
        func perform() async throws -> some IntentResult & ProvidesDialog { .result(dialog: "\(wallets.map(\.id).joined(separator: " vs "))") }
    }

    struct OpenWallet: AppIntent {
        static let title: LocalizedStringResource = "Open Wallet"
        @Parameter(title: "Wallet") var wallet: Wallet
        func perform() async throws -> some IntentResult & OpensIntent {
            .result(opensIntent: OpenURLIntent(URL(string: "wallets://open/\(wallet.id)")!))
        }
    }

    struct TopUp: AppIntent {
        static let title: LocalizedStringResource = "Top Up"
        @Parameter(title: "Wallet") var wallet: Wallet
        func perform() async throws -> some IntentResult & ProvidesDialog & OpensIntent {
            let next = ShowWallet()
            next.wallet = wallet
            next.period = .month
            next.currency = "EUR"
            return .result(opensIntent: next, dialog: "Topped up \(wallet).")
        }
    }

    struct WalletShortcuts: AppShortcutsProvider {
        static var appShortcuts: [AppShortcut] {
            AppShortcut(intent: ShowWallet(), phrases: ["Open \(\.$wallet) in \(.applicationName)", "Show \(\.$period) in \(.applicationName)",
                                                        "Show \(\.$wallet) for \(\.$period) in \(.applicationName)"],
                        shortTitle: "Show Wallet", systemImageName: "wallet.pass")
        }
    }

    /// What `@main struct X: AppIntentsExtension {}` serves: every intent and provider the executable links, found in
    /// the Swift runtime's conformance records (here, the test bundle's own and HabitCore's).
    @Test func theLinkedIntentsAreFoundAsAppleBuildStepFindsThem() {
        let intents = AppIntentsProcess.linkedIntents.map { $0.name }
        #expect(intents.contains("ShowWallet") && intents.contains("Greet") && intents.contains("CompleteHabit"), "\(intents)")
        #expect(AppIntentsProcess.linkedShortcuts.contains { $0 == WalletShortcuts.self })
        // Each type once, although a refined protocol (WidgetConfigurationIntent) also conforms it to AppIntent.
        #expect(Set(intents).count == intents.count, "\(intents)")
    }

    /// `.result(value:dialog:view:)`: the view is drawn with the widgets' renderer and its texts and picture travel
    /// with the result; the extension's report prints them and `--snippet-svg` keeps the picture.
    @Test func aSnippetResultDrawsItsView() throws {
        let result = try ShowWallet.performResolved(["wallet": "savings", "period": "month"])
        #expect(result.dialog == "Savings has 120 EUR." && result.value == "120")
        #expect(result.snippet?.texts == ["Savings", "120 EUR · this month"], "\(String(describing: result.snippet))")
        #expect(result.snippet?.svg.contains("<svg") == true && result.snippet?.svg.contains("Savings") == true)
        // A result without a view has no snippet.
        #expect(try AppleIntentsTests.Greet.performResolved(["name": "Ada"]).snippet == nil)
    }

    @Test func theExtensionReportsAndDrawsTheSnippet() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = IntentsHost(registry: IntentRegistry([ShowWallet.self, AppleIntentsTests.Greet.self]), router: nil, shortcuts: WalletShortcuts.self, appName: "Wallets")
        let svg = folder.appendingPathComponent("snippet.svg").path
        let report = try host.run(["perform", "ShowWallet", "--wallet", "travel", "--snippet-svg", svg])
        #expect(report.hasPrefix("Travel has 45 EUR.\nsnippet: Travel · 45 EUR · this week\nsnippet drawn: \(svg)\n(performed in the extension process;"), "\(report)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("Travel"))
        // Asking for the picture of a result that shows none, or into no folder, is refused with a sentence before the
        // intent runs.
        #expect(ShowWallet.showsSnippet && !AppleIntentsTests.Greet.showsSnippet)
        #expect { try host.run(["perform", "Greet", "--name", "Bo", "--snippet-svg", folder.appendingPathComponent("none.svg").path]) } throws: { error in
            "\(error)".contains("shows no snippet")
        }
        #expect { try host.run(["perform", "ShowWallet", "--wallet", "travel", "--snippet-svg", "/nonexistent/x.svg"]) } throws: { error in
            "\(error)".contains("its folder does not exist")
        }
    }

    /// Issue 45, item 5: a resource keeps Xcode's catalog key (`%lld`, `%@`) and its values; an entity or enum case
    /// puts in its own localized text (`CustomLocalizedStringResourceConvertible`), as a dialog shows it.
    @Test func resourcesKeepTheCatalogKeyAndTheirValues() {
        let wallet = WalletQuery.all[0]
        let resource: LocalizedStringResource = "\(wallet) has \(wallet.balance) € for \(Period.month)"
        #expect(resource.key == "%@ has %lld € for %@" && resource.description == "Savings has 120 € for This month")
        let dialog: IntentDialog = "\(wallet) is at \(100)%"
        #expect(dialog.full.key == "%@ is at %lld%%" && dialog.description == "Savings is at 100%")
        let fallback = LocalizedStringResource("wallet.title", defaultValue: "Wallet \(wallet.id)")
        #expect(fallback.key == "wallet.title" && fallback.description == "Wallet savings" && String(localized: fallback) == "Wallet savings")
    }

    /// `.result(opensIntent:)`: the system runs the opened intent next — an `OpenURLIntent` opens the app at its URL,
    /// another intent runs with the values it was given; the system's own intents are not listed as the app's.
    @Test func aResultOpensAnotherIntent() throws {
        let host = IntentsHost(registry: IntentRegistry([OpenWallet.self, TopUp.self, ShowWallet.self]), router: nil, shortcuts: nil, appName: "Wallets")
        let opened = try host.run(["perform", "OpenWallet", "--wallet", "travel"])
        #expect(opened.hasSuffix("opens wallets://open/travel in Wallets"), "\(opened)")
        let chained = try host.run(["perform", "TopUp", "--wallet", "savings"])
        #expect(chained.hasPrefix("Topped up Savings.\n"), "\(chained)")
        #expect(chained.hasSuffix("opens ShowWallet --currency EUR --period month --wallet savings: Savings has 120 EUR. (performed in the extension process)"), "\(chained)")
        #expect(!AppIntentsProcess.linkedIntents.contains { $0 == OpenURLIntent.self })
        #expect(ArrayShortcuts.appShortcuts.map(\.intentName) == ["OpenWallet", "TopUp"])
    }

    /// Some apps write the shortcuts as an array literal inside the builder.
    struct ArrayShortcuts: AppShortcutsProvider {
        static var appShortcuts: [AppShortcut] {
            [AppShortcut(intent: OpenWallet(), phrases: ["Open a wallet in \(.applicationName)"]),
             AppShortcut(intent: TopUp(), phrases: ["Top up in \(.applicationName)"])]
        }
    }

    /// `@Parameter(title:size:)`: a person can pick no more than `size` entities, so more is refused with a sentence.
    @Test func aListParameterTakesAtMostItsSize() throws {
        #expect(try CompareWallets.performResolved(["wallets": "savings,travel"]).dialog == "savings vs travel")
        #expect(CompareWallets.parameters.map(\.typeName) == ["Wallet ids, comma-separated, at most 2",
                                                             "Wallet ids, comma-separated, systemSmall: exactly 1, systemLarge: 2 to 3"])
        #expect { try CompareWallets.resolve(["wallets": "savings,travel,old"]) } throws: { error in
            "\(error)".contains("names 3 Wallet entities and the parameter takes at most 2")
        }
        // Per family: a count some family takes (a widget's configuration here serves all its families).
        #expect(try CompareWallets.resolve(["wallets": "old", "pinned": "savings,travel,old"]).pinned?.count == 3)
        #expect(try CompareWallets.resolve(["wallets": "old", "pinned": "travel"]).pinned?.count == 1)
        #expect { try CompareWallets.resolve(["wallets": "old", "pinned": "savings,travel,old,savings"]) } throws: { error in
            "\(error)".contains("takes systemSmall: exactly 1, systemLarge: 2 to 3")
        }
    }

    /// rule `intent.where`: performed in the running app, the snippet and the opened intent come back to the
    /// extension through the group container's mailbox (`responses/<id>.plist`), as they would across processes.
    @Test func theSnippetAndTheOpenedIntentComeBackFromTheApp() throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-app-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: container) }
        let router = IntentRouter(registry: IntentRegistry([ShowWallet.self, OpenWallet.self]), groupContainer: container, appBundleIdentifier: "com.example.wallets")
        let app = try Presence(directory: GroupsLayout.presence(container: container), bundleIdentifier: "com.example.wallets", state: .foreground)
        try withExtendedLifetime(app) {
            try router.serveContinuously { _, _, _ in }
            let (shown, target) = try router.perform("ShowWallet", arguments: ["wallet": "savings"])
            #expect(target == .app && shown.snippet?.texts == ["Savings", "120 EUR · this week"], "\(shown)")
            #expect(shown.snippet?.svg.contains("<svg") == true)
            let (opened, _) = try router.perform("OpenWallet", arguments: ["wallet": "old"])
            #expect(opened.opens == OpenedIntentRequest(name: "OpenURLIntent", arguments: ["url": "wallets://open/old"]), "\(opened)")
        }
    }

    /// `"Open \(\.$wallet) in \(.applicationName)"`: one phrase per suggested entity (per enum case), each running the
    /// intent with that value; a phrase naming two parameters is refused, as Apple's build step refuses it.
    @Test func aPhraseNamesAParameter() throws {
        let shortcut = WalletShortcuts.appShortcuts[0]
        #expect(shortcut.phrases[0] == "Open ${wallet} in ${applicationName}")
        let spoken = try shortcut.spokenPhrases(applicationName: "Wallets")
        #expect(spoken.prefix(5).map { "\($0.phrase) → \($0.arguments.joined(separator: " "))" } == [
            "Open Savings in Wallets → --wallet savings", "Open Travel in Wallets → --wallet travel", "Open Old in Wallets → --wallet old",
            "Show This week in Wallets → --period week", "Show This month in Wallets → --period month",
        ])
        #expect(shortcut.invalidPhrases == ["Show ${wallet} for ${period} in ${applicationName}"])
        let host = IntentsHost(registry: IntentRegistry([ShowWallet.self]), router: nil, shortcuts: WalletShortcuts.self, appName: "Wallets")
        #expect { try host.run(["shortcuts"]) } throws: { error in "\(error)".contains("Show ${wallet} for ${period}") }
    }

    /// `suggestedEntities()` returning an `ItemCollection` of `Item`s, a provider's `IntentItemCollection`, an enum's
    /// cases: the `options` command lists them as a configuration screen would, with the argument that picks each.
    @Test func optionsComeInSectionsWithAPrompt() throws {
        let host = IntentsHost(registry: IntentRegistry([ShowWallet.self]), router: nil, shortcuts: nil, appName: "Wallets")
        #expect(try host.run(["options", "ShowWallet", "wallet"]) == """
            Pick a wallet
            In use:
              Savings (120 €) — savings
              Travel (45 €) — travel
            Empty:
              Old (0 €) — old
            """)
        #expect(try host.run(["options", "ShowWallet", "currency"]) == "Currency\nCommon:\n  EUR — EUR\n  US dollar — USD")
        #expect(try host.run(["options", "ShowWallet", "period"]) == "This week — week\nThis month — month")
        #expect(throws: IntentError.self) { try host.run(["options", "ShowWallet", "colour"]) }
        // A sectioned query still finds entities for App Shortcuts and by identifier.
        #expect(try EntityLookup.suggested(Wallet.self).map(\.argument) == ["savings", "travel", "old"])
    }
}
