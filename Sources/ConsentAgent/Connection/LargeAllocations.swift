import CSystemd

/// Gives the memory of large blocks back to the kernel as soon as they are freed.
///
/// glibc's malloc serves a block of 128 KiB or more with its own mapping, but raises that threshold to the size of
/// each such block freed (up to 32 MiB): after the first `speech.get` reply (~0.85 MB) was freed, every later one came
/// from the heap and its arenas, and what clients that had left were sent stayed resident (after a flood of replies
/// never read the agent kept 175-279 MiB where it had idled at 66, and 81 MiB with requests held back for such
/// clients; docs/RELIABILITY.md, *Fault tests*). A fixed threshold keeps every large block (replies, speech audio, PDF
/// pages, records) a mapping of its own, unmapped by `free`: after the same flood the agent is back at 67 MiB. Small
/// blocks, nearly all of them, are unchanged.
public enum LargeAllocations {
    /// Blocks of this size or more are mapped on their own: glibc's starting threshold, kept from moving.
    public static let mappedFromBytes = 128 << 10

    /// Fixes the threshold (`mallopt(M_MMAP_THRESHOLD)`); called first thing by consentd.
    ///
    /// - Returns: whether malloc took it (a sanitizer's allocator ignores it).
    @discardableResult
    public static func returnToTheKernelWhenFreed() -> Bool {
        csystemd_set_mmap_threshold(Int32(mappedFromBytes)) == 1
    }
}
