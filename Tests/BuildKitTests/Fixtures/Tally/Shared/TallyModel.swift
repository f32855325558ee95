import Foundation

/// The app's view model, in a file that imports Foundation alone: on a device Foundation re-exports Combine.
final class TallyModel: ObservableObject {
    @Published var count = TallyStore.count
}
