import CCairoPango

/// cairo, Pango and the libraries under them, opened when the first PDF or image is made (`CCairoPango/include/CCairoPango.h`
/// says why: some forty shared objects no start of the agent should pay for).
///
/// Every way into drawing asks `require()` first: a font map (`FontLibrary`), a PDF or image surface
/// (`PDFCanvas`, `ImageCanvas`), a decoded PNG (`PNGImage`), a stamped copy (`VerificationMark`). So a kiosk
/// whose libraries are missing or broken gets a typed `renderingFailed` for the consent it cannot draw, instead
/// of an agent that does not start at all or a trap behind a socket.
enum CairoPangoLibrary {
    /// - Throws: `ConsentPDFError.Code.renderingFailed` with the dynamic loader's reason when the libraries cannot
    ///   be opened or lack a function.
    static func require() throws {
        guard ccairopango_library() != nil else {
            throw ConsentPDFError(.renderingFailed, "cairo and Pango cannot be loaded (\(String(cString: ccairopango_failure())))")
        }
    }

    /// Whether they could be opened (opening them if not yet done).
    static var isAvailable: Bool { ccairopango_library() != nil }
}

/// The libraries' functions, for the C helpers of the shim that take the table.
///
/// Only reached after `CairoPangoLibrary.require()` succeeded (each entry point above), so the trap is a
/// programming error, never an input's: the table, once opened, stays for the life of the process.
/// `nonisolated(unsafe)`: the table is written once, by `pthread_once`, before this pointer to it exists, and only
/// read after.
nonisolated(unsafe) let cairoPangoTable: UnsafePointer<ccairopango_functions> = {
    guard let table = ccairopango_library() else {
        preconditionFailure("cairo and Pango used before CairoPangoLibrary.require(): \(String(cString: ccairopango_failure()))")
    }
    return table
}()

/// The libraries' functions by their own names: `cairoPango.cairo_move_to(cr, x, y)` is `cairo_move_to(cr, x, y)`.
let cairoPango: ccairopango_functions = cairoPangoTable.pointee
