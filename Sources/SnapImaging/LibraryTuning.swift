import CInterposed
import CPixMemory

/// The workarounds lovesnap applies to Tesseract, Leptonica, libpng and libgomp for time they
/// waste, each keeping the text identical and each saving 5 % or more of the speed benchmark's
/// wall time (`CInterposed/tuning.c`; docs/measurements/speed.md): active only in the processes that call `activate()` (the OCR
/// worker, its reader and orientation processes), only for the library versions they were
/// verified against, and never when `LOVESNAP_NO_TUNING` names them ("1": all).
public enum LibraryTuning {
    /// One workaround: its name in `LOVESNAP_NO_TUNING`, and why it would be off in an OCR
    /// process (nil: it would be on).
    public struct Workaround: Equatable, Sendable {
        /// Its name in `LOVESNAP_NO_TUNING` ("line-images", …).
        public let name: String
        /// Why it is off ("off by LOVESNAP_NO_TUNING", "Tesseract 5.4.1 is not the verified 5.3"); nil: on.
        public let offBecause: String?

        /// A workaround named `name`, off for `offBecause` (nil: on).
        public init(name: String, offBecause: String?) {
            self.name = name
            self.offBecause = offBecause
        }
    }

    /// Turns the workarounds on in this process and installs lovesnap's image allocator in
    /// Leptonica (`setPixMemoryManager`, through `pix_memory_install`; needed by the rasters the
    /// worker shares with its reader, `Image.sharedRaster`). Call before the first image.
    public static func activate() {
        tuning_activate()
        pix_memory_install()
    }

    /// Every workaround, in `LOVESNAP_NO_TUNING`'s order, as an OCR process would have it.
    public static var workarounds: [Workaround] {
        (0..<Int(TUNING_KINDS.rawValue)).map { index in
            let kind = tuning_kind(rawValue: UInt32(index))
            return Workaround(
                name: String(cString: tuning_name(kind)),
                offBecause: tuning_state_when_active(kind).map { String(cString: $0) })
        }
    }

    /// The items of `LOVESNAP_NO_TUNING` that name no workaround (a typing slip: nothing is
    /// turned off for them), in the order given.
    public static var unknownNames: [String] {
        let names = String(cString: tuning_unknown_names())
        return names.isEmpty ? [] : names.split(separator: ",").map(String.init)
    }

    /// A warning for `unknownNames`, nil when there are none: "LOVESNAP_NO_TUNING: 'bogus' names
    /// no workaround (known: line-images, …; 1 turns all off)".
    public static var unknownNamesWarning: String? {
        let unknown = unknownNames
        guard !unknown.isEmpty else { return nil }
        return "LOVESNAP_NO_TUNING: " + unknown.map { "'\($0)'" }.joined(separator: ", ")
            + (unknown.count == 1 ? " names" : " name") + " no workaround (known: "
            + workarounds.map(\.name).joined(separator: ", ") + "; 1 turns all off)"
    }

    /// Whether `version` of `library` ("tesseract", "leptonica", "libpng"), as the library
    /// reports it, is one the workarounds were verified against (`tuning_version_verified`).
    public static func isVerified(library: String, version: String) -> Bool {
        tuning_version_verified(library, version) == 1
    }
}
