import CCairoPango
import Foundation
import NIOConcurrencyHelpers

/// The one Pango font map every PDF is laid out with, behind a lock, and its release when the process exits.
///
/// Why not Pango's default map: it is per thread, and PDFs are rendered on the cooperative pool's threads, so each
/// of them would keep a map holding fontconfig's caches to the end. fontconfig refers to a pattern's elements by an
/// offset from the pattern, not by a pointer, which LeakSanitizer cannot follow: every process that rendered a PDF
/// ended with "direct leaks" inside libfontconfig (docs/RELIABILITY.md, "Sanitizers"). Freeing fontconfig
/// (`FcFini`) needs every map's references dropped first (it asserts that no cache is still held), which only works
/// for maps we know of: so there is one, ours.
///
/// A Pango font map is not thread-safe, so a whole render, from the first measured text to the last layout freed,
/// holds the lock: renders in one process run one after the other (they share the map's loaded fonts).
/// The map is made by `pango_cairo_font_map_new`, as Pango makes its default one, so the PDFs are unchanged.
enum FontLibrary {
    /// The map, while it exists, and the study layouts made with it; `@unchecked` because both are only touched
    /// with the lock held.
    private struct FontMap: @unchecked Sendable {
        let pointer: OpaquePointer
        let studyLayouts = StudyLayoutCache()
    }

    private static let state = NIOLockedValueBox<FontMap?>(nil)

    /// Runs `body` with the lock held and the map made if needed. Every Pango object made from the map (contexts,
    /// layouts) must be freed before `body` returns. Throws what `body` throws, or `renderingFailed` when Pango
    /// cannot be loaded (`CairoPangoLibrary`).
    static func withFontMap<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        try withFonts { map, _ in try body(map) }
    }

    /// As `withFontMap`, with the study layouts kept for the map: the one exception to "freed before `body`
    /// returns", freed by `release()` before the map.
    static func withFonts<T>(
        _ body: (OpaquePointer, StudyLayoutCache) throws -> T
    ) throws -> T {
        try CairoPangoLibrary.require()
        return try state.withLockedValue { map in
            if let map { return try body(map.pointer, map.studyLayouts) }
            guard let made = cairoPango.pango_cairo_font_map_new() else { preconditionFailure("pango could not make a font map") }
            let fonts = FontMap(pointer: made)
            map = fonts
            _ = exitHandler
            return try body(made, fonts.studyLayouts)
        }
    }

    /// Shuts the map down and frees fontconfig's configuration and caches; a later render makes them again.
    ///
    /// Called from an exit handler registered with the first map, so every process that rendered a PDF (consentd,
    /// consentctl, the test runners) frees them at a normal exit, before LeakSanitizer's own exit handler looks.
    /// A render still running on another thread at exit finishes first (the lock).
    static func release() {
        state.withLockedValue { map in
            guard let current = map else { return }
            map = nil
            current.studyLayouts.removeAll()
            ccairopango_release_fonts(cairoPangoTable, current.pointer)
        }
    }

    /// Registered once, with the first map.
    private static let exitHandler: Void = {
        _ = atexit { FontLibrary.release() }
    }()
}
