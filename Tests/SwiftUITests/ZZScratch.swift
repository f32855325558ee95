import Testing
import Foundation
@testable import SwiftUI

private struct HabitRow: View {
    var name: String
    var done: Bool
    var body: some View {
        HStack {
            Image(systemName: done ? "checkmark.circle.fill" : "circle")
                .foregroundStyle(done ? .green : .secondary)
            Text(name).font(.subheadline).lineLimit(1)
            Spacer()
            Button(intent: TapIntent()) { Text("Done") }.buttonStyle(.bordered).font(.caption)
        }
    }
}

private struct Sample: View {
    @Environment(\.colorScheme) var scheme
    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack(alignment: .firstTextBaseline) {
                Text("Habits").font(.headline)
                Spacer()
                Text("3/5").font(.caption).foregroundStyle(.secondary).monospacedDigit()
            }
            ProgressView(value: 3, total: 5).tint(.green)
            HabitRow(name: "Morning walk in the park with the dog", done: true)
            HabitRow(name: "Read", done: false)
            Spacer(minLength: 0)
            Text("Updated \(Date(timeIntervalSince1970: 0), style: .relative) ago").font(.caption2).foregroundStyle(.tertiary)
        }
        .containerBackground(for: ContainerBackgroundPlacement("widget")) { LinearGradient(colors: [.white, Color(white: 0.93)], startPoint: .top, endPoint: .bottom) }
    }
}

@MainActor @Test func scratchRender() throws {
    guard ProcessInfo.processInfo.environment["SWIFTUI_SCRATCH"] != nil else { return }
    for (name, w, h) in [("small", 170.0, 170.0), ("medium", 364.0, 170.0)] {
        var env = EnvironmentValues()
        env.renderDate = Date(timeIntervalSince1970: 3600 * 5)
        let r = render(Sample(), RenderRequest(size: CGSize(width: w, height: h), environment: env,
            contentMargins: EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16), containerBackground: ContainerBackgroundPlacement("widget")))
        try r.svg(title: name).write(toFile: "/tmp/swiftui-trials/\(name).svg", atomically: true, encoding: .utf8)
        print(name, r.texts, r.controls.map(\.label))
    }
    let g = render(Gauge(value: 0.6) { Text("H") } currentValueLabel: { Text("60") }.gaugeStyle(.accessoryCircular), RenderRequest(size: CGSize(width: 76, height: 76)))
    try g.svg(title: "gauge").write(toFile: "/tmp/swiftui-trials/gauge.svg", atomically: true, encoding: .utf8)
}
