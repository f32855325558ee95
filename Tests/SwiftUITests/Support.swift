import AppIntents
@testable import SwiftUI

/// The leaf views a render placed (shapes, texts, images) with their frames.
@MainActor
func placed<V: View>(_ view: V, width: CGFloat, height: CGFloat) -> [(what: String, rect: CGRect)] {
    render(view, RenderRequest(size: CGSize(width: width, height: height))).canvas.placed
}

/// The frames of the placed shapes, in drawing order.
@MainActor
func shapeFrames<V: View>(_ view: V, width: CGFloat, height: CGFloat) -> [CGRect] {
    placed(view, width: width, height: height).filter { !$0.what.hasPrefix("Text(") && !$0.what.hasPrefix("Image(") }.map(\.rect)
}

func rect(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) -> CGRect { CGRect(x: x, y: y, width: w, height: h) }

/// Frames compared to a hundredth of a point (layout arithmetic is in floating point).
func close(_ a: [CGRect], _ b: [CGRect]) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).allSatisfy {
        abs($0.minX - $1.minX) < 0.01 && abs($0.minY - $1.minY) < 0.01 && abs($0.width - $1.width) < 0.01 && abs($0.height - $1.height) < 0.01
    }
}

/// An intent whose instances can be told apart.
struct TapIntent: AppIntent {
    static let title: LocalizedStringResource = "Tap"
    var token = UUID()
    init() {}
    init(token: UUID) { self.token = token }
    func perform() async throws -> some IntentResult { .result() }
}

struct FlipIntent: AppIntent {
    static let title: LocalizedStringResource = "Flip"
    init() {}
    func perform() async throws -> some IntentResult { .result() }
}
