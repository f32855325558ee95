import UIKit

/// Where a tap on a widget opens the app: a helper file that imports UIKit alone, as real widget code's often do.
enum TallyLinks {
    static let count = URL(string: "tally://count")!
}
