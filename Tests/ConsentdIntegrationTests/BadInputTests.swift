import Foundation
import Testing

extension ConsentdIntegration {
    /// Each class of bad input of Protocol/README.md "Errors": answered, and the connection keeps working.
    @Suite struct BadInput {
        @Test func everyBadInputClassIsAnsweredAndTheConnectionGoesOn() throws {
            let agent = try ConsentdProcess("badinput", arguments: ["--max-line-bytes", "1024"])
            let ui = try agent.client()
            ui.negotiate()

            ui.send("{not json")
            let parse = try #require(ui.next())
            #expect(parse.int("error.code") == -32700)
            #expect(parse["id"] is NSNull)

            ui.send(#"[{"jsonrpc":"2.0","id":1,"method":"session.sync"}]"#)
            #expect(ui.next()?.int("error.code") == -32600)
            ui.send(#"{"jsonrpc":"2.0","method":"session.sync"}"#)
            #expect(ui.next()?.int("error.code") == -32600)
            ui.send(#"{"jsonrpc":"1.0","id":"a","method":"session.sync"}"#)
            let version = try #require(ui.next())
            #expect(version.int("error.code") == -32600)
            #expect(version.string("id") == "a")

            let unknown = ui.call("flow.teleport")
            #expect(unknown.int("error.code") == -32601)
            #expect(unknown.errorType == "MethodNotFound")

            let badType = ui.call("eligibility.answer", ["flow": "f-x", "answers": "yes"])
            #expect(badType.int("error.code") == -32602)
            #expect(badType.string("error.data.field") == "answers")

            // Unknown params are refused before any side effect: no flow is started.
            let unknownParam = ui.call("flow.start", ["study": "x", "colour": "red"])
            #expect(unknownParam.string("error.data.field") == "colour")
            #expect((ui.call("events.subscribe", ["topics": ["flow"]]).array("result.snapshot.flows") ?? [1]).isEmpty)

            // An over-long line: one error with id null, then the next line is served.
            ui.send(#"{"jsonrpc":"2.0","id":"long","method":"session.sync","params":{"pad":""# + String(repeating: "x", count: 5000) + #""}}"#)
            let tooLong = try #require(ui.next())
            #expect(tooLong.errorType == "LineTooLong")
            #expect(tooLong["id"] is NSNull)
            #expect(tooLong.int("error.data.maximum") == 1024)
            #expect(ui.call("session.sync")["result"] != nil)

            // Blank and comment lines are ignored; CRLF is accepted; string ids are echoed.
            ui.send("")
            ui.send("   ")
            ui.send("# a comment, as in socat scripts")
            ui.send(#"{"jsonrpc":"2.0","id":"crlf","method":"session.sync"}"#, terminator: "\r\n")
            let crlf = try #require(ui.next())
            #expect(crlf.string("id") == "crlf")
            #expect(crlf["result"] != nil)
            agent.finish()
        }
    }
}
