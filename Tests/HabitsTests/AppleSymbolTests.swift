import AppIntents
import HabitCore
import SwiftUI
import Testing
import WidgetKit

/// Apple symbols real widget and intent files use, beyond what the Habits app needs (issue 40's item 4): each as
/// Apple declares it, with what it gives.
@Suite struct AppleSymbolTests {
    @Test func recommendationsDefaultToNoneAndCarryTheirIntents() {
        #expect(FocusProvider().recommendations().isEmpty)
        let intent = FocusHabit()
        intent.habit = "Read"
        let recommendation = AppIntentRecommendation(intent: intent, description: "Read every day")
        #expect(recommendation.intent.habit == "Read")
        let resource = AppIntentRecommendation(intent: intent, description: LocalizedStringResource("All", comment: "every habit"))
        #expect(resource.intent.habit == "Read")
    }

    @Test func localizedResourcesWithCommentsAndConvertibles() {
        let resource = LocalizedStringResource("All", comment: "A phrase that means every backyard.")
        #expect(resource.description == "All")
        func text(_ value: some CustomLocalizedStringResourceConvertible) -> String { value.localizedStringResource.description }
        #expect(text(resource) == "All")
    }
}
