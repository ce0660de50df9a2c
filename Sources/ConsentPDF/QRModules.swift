import CCairoPango
import CQREncode

/// A QR code's modules (libqrencode) and their drawing: the one home for both, shared by the copy's verification
/// mark and the resume slip.
struct QRModules {
    /// Modules per side.
    let width: Int
    /// Row by row; true: dark.
    let dark: [Bool]

    /// `text` at error correction level M (about 15 % of the code may be smudged or folded and it still reads).
    ///
    /// - Throws: `ConsentPDFError.renderingFailed` naming `what` when libqrencode cannot encode it.
    init(encoding text: String, what: String) throws {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw ConsentPDFError(.renderingFailed, "libqrencode could not encode \(what)")
        }
        defer { QRcode_free(code) }
        width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what libqrencode used it for.
        dark = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Draws the code, its quiet zone included (the four modules ISO/IEC 18004 asks for), as a `side`-point square
    /// at (`x`, `y`), on white so that it reads whatever is beneath.
    func draw(on cr: OpaquePointer, x: Double, y: Double, side: Double) {
        let quiet = 4
        let module = side / Double(width + 2 * quiet)
        cairoPango.cairo_save(cr)
        defer { cairoPango.cairo_restore(cr) }
        cairoPango.cairo_set_source_rgb(cr, 1, 1, 1)
        cairoPango.cairo_rectangle(cr, x, y, side, side)
        cairoPango.cairo_fill(cr)
        cairoPango.cairo_set_source_rgb(cr, 0, 0, 0)
        for row in 0..<width {
            for column in 0..<width where dark[row * width + column] {
                cairoPango.cairo_rectangle(cr, x + Double(column + quiet) * module, y + Double(row + quiet) * module, module, module)
            }
        }
        cairoPango.cairo_fill(cr)
    }
}
