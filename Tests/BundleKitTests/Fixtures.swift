import CZlib
import Foundation

/// Test fixtures written on the fly: built bundles with XML or binary Info.plists, and zips (for `.ipa`s) written
/// byte by byte with stored and deflated entries.
enum Fixtures {
    static func infoPlist(_ identifier: String, build: String? = "289", short: String? = "1.0",
                          extra: [String: Any] = [:]) -> [String: Any] {
        var plist: [String: Any] = ["CFBundleIdentifier": identifier]
        if let build { plist["CFBundleVersion"] = build }
        if let short { plist["CFBundleShortVersionString"] = short }
        return plist.merging(extra) { $1 }
    }

    static func plistBytes(_ plist: [String: Any], binary: Bool) -> [UInt8] {
        Array(try! PropertyListSerialization.data(fromPropertyList: plist, format: binary ? .binary : .xml, options: 0))
    }

    static func entitlements(_ groups: [String]) -> [UInt8] {
        plistBytes(["com.apple.security.application-groups": groups], binary: false)
    }

    /// The files of a built Habits app, relative to the folder holding `X.app`: a binary app plist, an XML
    /// widget plist, an ExtensionKit intents extension and a watch app, each with `archived-expanded-entitlements.xcent`.
    /// `change` edits the plists (keyed by bundle folder) before they are written.
    static func builtApp(_ change: (inout [String: [String: Any]]) -> Void = { _ in }) -> [(String, [UInt8])] {
        let group = ["group.com.x.habits"]
        var plists: [String: [String: Any]] = [
            "X.app": infoPlist("com.x.habits", extra: ["CFBundlePackageType": "APPL"]),
            "X.app/PlugIns/Widget.appex": infoPlist("com.x.habits.widget", extra: [
                "CFBundlePackageType": "XPC!", "CFBundleDisplayName": "Habits",
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]]),
            "X.app/Extensions/Intents.appex": infoPlist("com.x.habits.intents", extra: [
                "EXAppExtensionAttributes": ["EXExtensionPointIdentifier": "com.apple.appintents-extension"]]),
            "X.app/Watch/W.app": infoPlist("com.x.habits.watchkitapp", extra: [
                "WKApplication": true, "WKCompanionAppBundleIdentifier": "com.x.habits"]),
        ]
        change(&plists)
        var files: [(String, [UInt8])] = []
        for (folder, plist) in plists.sorted(by: { $0.key < $1.key }) {
            files.append(("\(folder)/Info.plist", plistBytes(plist, binary: folder == "X.app")))
            files.append(("\(folder)/archived-expanded-entitlements.xcent", entitlements(group)))
        }
        return files
    }

    /// A minimal signed arm64 Mach-O: a header, one LC_CODE_SIGNATURE load command, and a SuperBlob holding a
    /// code directory placeholder and the entitlements blob. `universal` wraps it in a fat header.
    static func signedExecutable(entitlements plist: [UInt8], universal: Bool = false) -> [UInt8] {
        func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        func be(_ v: Int) -> [UInt8] { le(v).reversed() }
        let signatureOffset = 64
        let entitlementsBlob = be(0xFADE_7171) + be(8 + plist.count) + plist
        let codeDirectory = be(0xFADE_0C02) + be(8)
        let superBlob = be(0xFADE_0CC0) + be(12 + 16 + codeDirectory.count + entitlementsBlob.count) + be(2)
            + be(0) + be(28) + be(5) + be(28 + codeDirectory.count) + codeDirectory + entitlementsBlob
        var thin = le(0xFEED_FACF) + le(0x0100_000C) + le(0) + le(2) + le(1) + le(16) + le(0) + le(0)
        thin += le(0x1D) + le(16) + le(signatureOffset) + le(superBlob.count)
        thin += [UInt8](repeating: 0, count: signatureOffset - thin.count) + superBlob
        guard universal else { return thin }
        let fat = be(0xCAFE_BABE) + be(1) + be(0x0100_000C) + be(0) + be(4096) + be(thin.count) + be(14)
        return fat + [UInt8](repeating: 0, count: 4096 - fat.count) + thin
    }

    static func write(_ files: [(String, [UInt8])], under root: URL) throws {
        for (relative, bytes) in files {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
    }

    /// A zip file: local headers, data (stored, or raw-deflated with zlib), central directory, end record.
    /// `lie` overrides the uncompressed size recorded in the central directory (zip-bomb tests).
    static func zip(_ files: [(String, [UInt8])], deflate: (String) -> Bool = { _ in true }, lie: [String: Int] = [:]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, _ a: inout [UInt8]) { a += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int, _ a: inout [UInt8]) { u16(v & 0xFFFF, &a); u16(v >> 16 & 0xFFFF, &a) }
        for (name, bytes) in files {
            let compressed = deflate(name)
            let data = compressed ? rawDeflate(bytes) : bytes
            let crc = bytes.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, uInt($0.count))) }
            let offset = out.count
            let nameBytes = Array(name.utf8)
            u32(0x0403_4B50, &out); u16(20, &out); u16(0, &out); u16(compressed ? 8 : 0, &out); u16(0, &out); u16(0, &out)
            u32(crc, &out); u32(data.count, &out); u32(bytes.count, &out); u16(nameBytes.count, &out); u16(0, &out)
            out += nameBytes + data
            u32(0x0201_4B50, &central); u16(20, &central); u16(20, &central); u16(0, &central); u16(compressed ? 8 : 0, &central)
            u16(0, &central); u16(0, &central); u32(crc, &central); u32(data.count, &central); u32(lie[name] ?? bytes.count, &central)
            u16(nameBytes.count, &central); u16(0, &central); u16(0, &central); u16(0, &central); u16(0, &central)
            u32(0, &central); u32(offset, &central)
            central += nameBytes
        }
        let centralOffset = out.count
        out += central
        u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out); u16(files.count, &out); u16(files.count, &out)
        u32(central.count, &out); u32(centralOffset, &out); u16(0, &out)
        return out
    }

    static func rawDeflate(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        var input = input
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                precondition(deflate(&stream, Z_FINISH) == Z_STREAM_END)
            }
        }
        return Array(output[0..<Int(stream.total_out)])
    }
}
