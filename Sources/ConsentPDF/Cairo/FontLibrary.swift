import CCairoPango

/// fontconfig's process-wide state, which Pango loads on the first layout and keeps for the life of the process.
public enum FontLibrary {
    /// Frees fontconfig's configuration and font caches: call once, at exit, after the last PDF is rendered.
    ///
    /// Why: fontconfig refers to a pattern's elements by an offset from the pattern, not by a pointer, which
    /// LeakSanitizer cannot follow; so without this every process that rendered a PDF ends with "direct leaks"
    /// inside libfontconfig, and the AddressSanitizer run (docs/RELIABILITY.md) fails on them. Nothing is lost in a
    /// normal run: the memory is only never given back before exit.
    ///
    /// No thread may render (or measure text) during or after the call: Pango's font maps still point into what
    /// this frees. An executable calls it where it knows rendering is over (consentd after its services stopped,
    /// consentctl from an exit handler).
    public static func release() {
        FcFini()
    }
}
