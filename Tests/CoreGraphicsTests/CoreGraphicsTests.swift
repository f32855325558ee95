import CoreGraphics
import Testing

/// Core Graphics' transform arithmetic, as its documentation defines it.
@Suite struct CoreGraphicsTests {
    @Test func transformsComposeInCoreGraphicsOrder() {
        // translatedBy applies the translation first: (1, 0) → (11, 0) → scaled by 2 → (22, 0).
        let t = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0)
        #expect(CGPoint(x: 1, y: 0).applying(t) == CGPoint(x: 22, y: 0))
        // concatenating: self first, then the argument.
        let u = CGAffineTransform(translationX: 10, y: 0).concatenating(CGAffineTransform(scaleX: 2, y: 2))
        #expect(CGPoint(x: 1, y: 0).applying(u) == CGPoint(x: 22, y: 0))
        let quarter = CGAffineTransform(rotationAngle: .pi / 2)
        let turned = CGPoint(x: 1, y: 0).applying(quarter)
        #expect(abs(turned.x) < 1e-12 && abs(turned.y - 1) < 1e-12)
    }

    @Test func inversesUndoAndRectanglesHoldTheirCorners() {
        let t = CGAffineTransform(translationX: 3, y: 4).scaledBy(x: 2, y: 5)
        let p = CGPoint(x: 7, y: -2)
        let back = p.applying(t).applying(t.inverted())
        #expect(abs(back.x - p.x) < 1e-12 && abs(back.y - p.y) < 1e-12)
        #expect(t.concatenating(t.inverted()).isIdentity || abs(t.concatenating(t.inverted()).tx) < 1e-12)
        #expect(CGRect(x: 0, y: 0, width: 10, height: 20).applying(CGAffineTransform(scaleX: -1, y: 1)) == CGRect(x: -10, y: 0, width: 10, height: 20))
        #expect(CGSize(width: 2, height: 3).applying(CGAffineTransform(translationX: 9, y: 9)) == CGSize(width: 2, height: 3))
        #expect(CGVector(dx: 1, dy: 2) != .zero)
    }
}
