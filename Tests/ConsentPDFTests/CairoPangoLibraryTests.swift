import CCairoPango
import CCairoPangoCheck
import Testing

@testable import ConsentPDF

/// cairo and Pango are opened on first use through CCairoPango's table (Sources/CCairoPango/include/CCairoPango.h).
@Suite struct CairoPangoLibraryTests {
    /// Tests/CCairoPangoCheck compiled the shim's 36 Pango and GLib prototypes against the real headers; a new one
    /// added to the table is checked there too, and counted here.
    @Test func everyPangoAndGLibPrototypeIsHeldToTheRealHeaders() {
        #expect(ccairopango_checked_prototypes() == 36)
    }

    /// The libraries open, and every function of the table resolves (a missing one would leave the table unfilled).
    @Test func theLibrariesOpenWithEveryFunction() throws {
        try CairoPangoLibrary.require()
        #expect(CairoPangoLibrary.isAvailable)
        #expect(String(cString: ccairopango_failure()).isEmpty)
    }
}
