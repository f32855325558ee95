@testable import AppIntents
import Testing

// This file imports only AppIntents and Testing: Date, URL and Measurement come through AppIntents, which re-exports
// Foundation as Apple's framework does.

/// The rest of Apple's App Intents surface (issue 26), written as iOS code writes it: enums, parameter summaries
/// with `When` and `Switch`, optional entity parameters, Apple's `@Parameter` labels, string queries, entity properties
/// and the intent kinds.
@Suite("AppIntents: enums, summaries, the other parameter forms and intent kinds")
struct AppIntentsSurfaceTests {
    enum Unit: String, AppEnum {
        case kilometres, miles
        static var typeDisplayRepresentation: TypeDisplayRepresentation { "Unit" }
        static var caseDisplayRepresentations: [Unit: DisplayRepresentation] {
            [.kilometres: "Kilometres", .miles: DisplayRepresentation(title: "Miles", subtitle: "Imperial", image: .init(systemName: "ruler"))]
        }
    }

    struct Trail: AppEntity {
        static var typeDisplayRepresentation: TypeDisplayRepresentation { "Trail" }
        static let defaultQuery = TrailQuery()
        let id: String
        @Property(title: "Length") var length: Double
        var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(id)", subtitle: "\(length) km") }

        init(id: String, length: Double) {
            self.id = id
            self.length = length
        }
    }

    struct TrailQuery: EntityStringQuery {
        static let all = [Trail(id: "ridge", length: 12), Trail(id: "river", length: 5)]
        func entities(for identifiers: [String]) async throws -> [Trail] { Self.all.filter { identifiers.contains($0.id) } }
        func entities(matching string: String) async throws -> [Trail] { Self.all.filter { $0.id.hasPrefix(string.lowercased()) } }
    }

    struct UnitOptions: DynamicOptionsProvider {
        func results() async throws -> [Unit] { Unit.allCases }
    }

    struct LogWalk: AppIntent, ForegroundContinuableIntent, ProgressReportingIntent, PredictableIntent, CustomIntentMigratedAppIntent {
        static let title: LocalizedStringResource = "Log Walk"
        static let intentClassName = "LogWalkIntent"
        static let authenticationPolicy = IntentAuthenticationPolicy.requiresAuthentication
        @Parameter(title: "Distance", default: 3, inclusiveRange: (0, 100)) var distance: Int
        @Parameter(title: "Unit", default: .kilometres, optionsProvider: UnitOptions()) var unit: Unit
        @Parameter(title: "Trail", requestValueDialog: "Which trail?") var trail: Trail?
        @Parameter(title: "Note", inputOptions: String.IntentInputOptions(keyboardType: .default, capitalizationType: .none, autocorrect: false),
                   inputConnectionBehavior: .connectToPreviousIntentResult) var note: String?
        @Parameter(title: "When") var when: Date?
        @Parameter(title: "Also") var also: [Trail]?

        static var parameterSummary: some ParameterSummary {
            When(\.$trail, .hasAnyValue) {
                Summary("Log \(\.$distance) on \(\.$trail)")
            } otherwise: {
                Switch(\.$unit) {
                    Case(.miles) { Summary("Log \(\.$distance) miles") }
                    DefaultCase { Summary("Log \(\.$distance) \(\.$unit)") { \.$note; \.$when } }
                }
            }
        }

        static var predictionConfiguration: some IntentPredictionConfiguration {
            IntentPrediction(parameters: (\.$distance)) { distance in DisplayRepresentation(title: "Log \(distance)") }
        }

        func perform() async throws -> some IntentResult & ProvidesDialog {
            progress.totalUnitCount = 1
            progress.completedUnitCount = 1
            let distance = Measurement(value: Double(distance), unit: unit == .miles ? UnitLength.miles : UnitLength.kilometers)
            return .result(dialog: "Logged \(Int(distance.value)) \(unit.rawValue)\(trail.map { " on \($0.id)" } ?? "")")
        }
    }

    @Test func enumsAndOptionalEntitiesResolveFromText() throws {
        #expect(Unit.parse("miles") == .miles && Unit.parse("Kilometres") == .kilometres && Unit.parse("leagues") == nil)
        #expect(try LogWalk.performResolved(["distance": "5", "unit": "Miles"]) == PerformedResult(dialog: "Logged 5 miles", value: nil))
        // An entity by its identifier, or by text its EntityStringQuery matches; unset, it is nil.
        #expect(try LogWalk.performResolved(["trail": "ridge"]).dialog == "Logged 3 kilometres on ridge")
        #expect(try LogWalk.performResolved(["trail": "Riv"]).dialog == "Logged 3 kilometres on river")
        #expect(throws: IntentError.self) { try LogWalk.resolve(["trail": "nowhere"]) }
        #expect(LogWalk.parameters.map(\.isRequired) == [false, false, false, false, false, false])
        #expect(try LogWalk.resolve(["also": "ridge, river"]).also?.map(\.id) == ["ridge", "river"])
        #expect(throws: IntentError.self) { try LogWalk.resolve(["also": "ridge,nowhere"]) }
        #expect(TrailQuery.all[0].$length.title == "Length" && TrailQuery.all[0].length == 12)
        #expect(LogWalk.authenticationPolicy == .requiresAuthentication && LogWalk.intentClassName == "LogWalkIntent")
        #expect(LogWalk().progress.completedUnitCount <= 1)
    }

    @Test func theParameterSummaryIsWhatListShows() throws {
        // With its defaults: no trail, kilometres — the DefaultCase, with the parameters listed below it.
        #expect(LogWalk.summaryText == "Log ${distance} ${unit} (${note}, ${when})")
        // The branch follows the values, as the Shortcuts app's sentence does.
        let onTrail = try LogWalk.resolve(["trail": "ridge"])
        #expect(LogWalk.parameterSummary.summaryText(for: onTrail) == "Log ${distance} on ${trail}")
        let inMiles = try LogWalk.resolve(["unit": "miles"])
        #expect(LogWalk.parameterSummary.summaryText(for: inMiles) == "Log ${distance} miles")
        // Only the parameters, as Backyard Birds' widget intent writes it.
        struct Pick: AppIntent {
            static let title: LocalizedStringResource = "Pick"
            @Parameter(title: "Distance", default: 3) var distance: Int
            @Parameter(title: "Unit", default: .kilometres) var unit: Unit
            static var parameterSummary: some ParameterSummary { Summary { \.$distance; \.$unit } }
            func perform() async throws -> some IntentResult { .result() }
        }
        #expect(Pick.parameterSummary.summaryText(for: Pick()) == "${distance}, ${unit}")
        struct Plain: AppIntent {
            static let title: LocalizedStringResource = "Plain"
            func perform() async throws -> some IntentResult { .result() }
        }
        #expect(Plain.summaryText == nil)
    }
}
