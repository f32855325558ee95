import Foundation
import LockstepSystem

/// Our side of each figure: Lockstep's own subsystems, measured exactly as their baselines are.
enum OurFigures {
    /// The simulated bundles' executables, as the embedded default manifest names them.
    static let bundleExecutables = ["lockstep-host", "lockstep-widget", "lockstep-watch", "lockstep-intent"]
    /// RULES.md `widget.memory`: widget extensions are killed above 30 MB.
    static let widgetMemoryLimitMB = 30

    static func changeLatencies(_ plan: BenchPlan) throws -> [Double] {
        throw BenchError.notMeasured("GroupDefaults.observe (branch runtime) has not landed")
    }

    static func incrementThroughput(_ plan: BenchPlan, processes: Int) throws -> Double {
        throw BenchError.notMeasured("GroupDefaults.increment (branch runtime) has not landed")
    }

    static func singleKeyWriteCost(_ plan: BenchPlan, keys: Int) throws -> Double {
        throw BenchError.notMeasured("GroupDefaults (branch runtime) has not landed")
    }

    static func upToReady(_ plan: BenchPlan) throws -> Double {
        throw BenchError.notMeasured("lockstep up (branch launch) has not landed")
    }

    static func widgetMemory(_ plan: BenchPlan) throws -> (rss: Double, anonymous: Double) {
        throw BenchError.notMeasured("lockstep-widget (branch habits) has not landed")
    }

    static func checkProject(_ plan: BenchPlan) -> [BenchRow] {
        [BenchRow.notMeasured("check \(plan.projectTargets) targets", unit: "ms", baselineName: "pbxproj (Python) loading the same file",
                              goal: .atMost(0.2), why: "the Xcode project reader (branch xcode) has not landed")]
    }
}
