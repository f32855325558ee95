import BundleKit
import CZlib
import LockstepSystem


/// A minimal zip reader for `.ipa` files: the central directory, and stored or deflated entries inflated with
/// the system's zlib (raw deflate). No package dependency, no shelling out to `unzip`.
///
/// Only the entries asked for are read (an `.ipa` may be hundreds of megabytes; `check` needs its plists), and
/// every size and offset is checked against the file and a limit, so a damaged zip or a zip bomb is an error.
public final class ZipArchive {
    /// One entry of the central directory.
    public struct Entry: Sendable {
        public var name: String
        var method: UInt16
        var flags: UInt16
        var crc: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    /// The default limit on an entry's size: plists and entitlements are kilobytes.
    public static let maximumEntrySize = 16 << 20

    public let path: String
    /// The entries by name, as the central directory lists them.
    public private(set) var entries: [String: Entry] = [:]
    private let descriptor: FileDescriptor
    private let fileSize: Int

    /// Opens `path` and reads its central directory.
    /// - Throws: `BundleError` (`.unreadable`, `.notAnIPA` for anything that is not a readable zip).
    public init(path: String) throws {
        self.path = path
        do {
            // Without blocking: a FIFO named X.ipa is refused below, not waited on.
            descriptor = try FileDescriptor.openWithoutBlocking(path)
        } catch {
            throw InputFile.unreadable(path, error)
        }
        do {
            fileSize = try descriptor.status(path: path).size
        } catch {
            descriptor.close()
            throw InputFile.unreadable(path, error)
        }
        do {
            try readCentralDirectory()
        } catch {
            descriptor.close()
            throw error
        }
    }

    deinit { descriptor.close() }

    private func damaged(_ detail: String) -> BundleError {
        BundleError(.notAnIPA, path: path, detail: detail)
    }

    /// Reads `count` bytes at `offset`, failing unless they are all inside the file.
    private func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= fileSize, count <= fileSize - offset else {
            throw damaged("a zip record points outside the file")
        }
        let bytes: [UInt8]
        do {
            bytes = try descriptor.read(at: offset, count: count, path: path)
        } catch {
            throw BundleError(.unreadable, path: path, detail: error.errno.map { "\($0)" } ?? "read failed")
        }
        guard bytes.count == count else { throw damaged("the file ends early") }
        return bytes
    }

    private func readCentralDirectory() throws {
        // The end-of-central-directory record is in the last 22 + 65,535 (comment) bytes.
        let tailSize = min(fileSize, 22 + 65_535)
        let tail = try bytes(at: fileSize - tailSize, count: tailSize)
        guard tail.count >= 22,
              let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.uint32(at: $0) == 0x0605_4B50 })
        else { throw damaged("it is not a zip file (no end of central directory)") }
        let count = Int(tail.uint16(at: end + 10))
        let size = Int(tail.uint32(at: end + 12))
        let offset = Int(tail.uint32(at: end + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            throw damaged("it is a ZIP64 archive, which Lockstep does not read")
        }
        // The end record must describe one whole archive whose central directory ends where the record starts: a
        // count, size or offset changed in it would otherwise hide entries (an app read as having fewer bundles).
        // Bytes before the archive (a self-extracting stub) move every offset by their count, as unzip and Python's
        // zipfile read them: the offsets are read from where the directory really ends.
        let prefix = (fileSize - tailSize + end) - (offset + size)
        guard tail.uint16(at: end + 4) == 0, tail.uint16(at: end + 6) == 0, Int(tail.uint16(at: end + 8)) == count,
              prefix >= 0 else {
            throw damaged("its end-of-central-directory record does not match its central directory")
        }
        let directory = try bytes(at: offset + prefix, count: size)
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= directory.count, directory.uint32(at: position) == 0x0201_4B50 else {
                throw damaged("its central directory is damaged")
            }
            let nameLength = Int(directory.uint16(at: position + 28))
            let extraLength = Int(directory.uint16(at: position + 30))
            let commentLength = Int(directory.uint16(at: position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { throw damaged("its central directory is damaged") }
            let name = String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            guard entries[name] == nil else { throw damaged("its central directory lists '\(name)' twice") }
            entries[name] = Entry(
                name: name, method: directory.uint16(at: position + 10), flags: directory.uint16(at: position + 8),
                crc: directory.uint32(at: position + 16), compressedSize: Int(directory.uint32(at: position + 20)),
                uncompressedSize: Int(directory.uint32(at: position + 24)),
                localHeaderOffset: Int(directory.uint32(at: position + 42)) + prefix)
            position = next
        }
        guard position == directory.count else {
            throw damaged("its central directory holds more than the \(count) records its end record counts")
        }
    }

    /// The contents of the entry `name`, or `nil` if the archive has none.
    /// - Parameter limit: the largest entry read, compressed or not; larger ones are refused (zip bombs).
    /// - Throws: `BundleError.notAnIPA` for an encrypted, oversized, corrupt or unsupported entry.
    public func read(_ name: String, limit: Int = maximumEntrySize) throws -> [UInt8]? {
        guard let entry = entries[name] else { return nil }
        guard entry.flags & 1 == 0 else { throw damaged("the entry '\(name)' is encrypted") }
        guard entry.uncompressedSize <= limit, entry.compressedSize <= limit else {
            throw damaged("the entry '\(name)' is larger than \(limit >> 20) MB")
        }
        let header = try bytes(at: entry.localHeaderOffset, count: 30)
        guard header.uint32(at: 0) == 0x0403_4B50 else { throw damaged("the entry '\(name)' has no local header") }
        // The local header must name the same entry as the central directory.
        let localName = try bytes(at: entry.localHeaderOffset + 30, count: Int(header.uint16(at: 26)))
        guard localName == Array(name.utf8) else { throw damaged("the local header of '\(name)' names another entry") }
        let dataOffset = entry.localHeaderOffset + 30 + Int(header.uint16(at: 26)) + Int(header.uint16(at: 28))
        let compressed = try bytes(at: dataOffset, count: entry.compressedSize)
        let contents: [UInt8]
        switch entry.method {
        case 0:
            contents = compressed
        case 8:
            contents = try inflate(compressed, expected: entry.uncompressedSize, name: name)
        default:
            throw damaged("the entry '\(name)' uses compression method \(entry.method), not stored or deflate")
        }
        guard contents.count == entry.uncompressedSize, crc(contents) == entry.crc else {
            throw damaged("the entry '\(name)' is corrupt (size or CRC-32 mismatch)")
        }
        return contents
    }

    /// Raw-inflates `input`, producing at most `expected` bytes: a stream that would produce more (a zip bomb
    /// lying about its size) is refused rather than followed.
    private func inflate(_ input: [UInt8], expected: Int, name: String) throws -> [UInt8] {
        var stream = z_stream()
        // -15 window bits: raw deflate, as zip stores it (no zlib header).
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw damaged("zlib could not start inflating '\(name)'")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: expected + 1)
        var input = input
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        let produced = Int(stream.total_out)
        guard status == Z_STREAM_END, produced <= expected else {
            throw damaged("the entry '\(name)' is corrupt or larger than its recorded size")
        }
        return Array(output[0..<produced])
    }

    private func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}

extension Array where Element == UInt8 {
    fileprivate func uint16(at offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    fileprivate func uint32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }
}
