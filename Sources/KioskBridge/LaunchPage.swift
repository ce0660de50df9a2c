import FileBytes

/// The page a kiosk's browser starts on (`--launch-page FILE`, opened as `file://FILE`): it forwards the browser
/// to the bridge's address with the token, and the bridge answers with the page's `HttpOnly` cookie.
///
/// Why a file: a browser started with the token in its address carries it in its command line, which every local
/// user reads in `/proc/<pid>/cmdline`. With the token and a forged `Origin` header another user could open `/rpc`.
/// This file is written `0600` for the user consentweb runs as (the kiosk's browser runs as the same user), so the
/// token travels only through files that user alone can read. The forward uses `<meta http-equiv="refresh">`:
/// a `file://` page may navigate a top-level window to `http://`, and needs no script.
public enum LaunchPage {
    public enum WriteError: Error, CustomStringConvertible {
        case cannotWrite(path: String, reason: String)

        public var description: String {
            switch self {
            case .cannotWrite(let path, let reason): return "--launch-page \(path): cannot be written (\(reason))"
            }
        }
    }

    /// The page's HTML, forwarding to `url` (an address this bridge made: ASCII letters, digits and `:/?=.[]`).
    public static func html(forwardingTo url: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
        <meta http-equiv="refresh" content="0; url=\(url)"><title>consent kiosk</title></head>
        <body></body></html>

        """
    }

    /// Writes the page atomically, mode 0600: a browser restarted at any moment finds the old page or the new one.
    public static func write(to path: String, forwardingTo url: String) throws(WriteError) {
        do {
            try DurableWrite.replace(path, contents: Array(html(forwardingTo: url).utf8), mode: 0o600)
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
    }
}
