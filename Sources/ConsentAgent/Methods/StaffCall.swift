import AgentProtocol
import ConsentCore

extension FlowContext {
    /// `staff.call`: "Ask a staff member" (the view's `askStaff`, on every participant screen). The flow waits for
    /// them: it does not expire meanwhile, its view says someone is coming (`view.staffCall`), and a staff page is
    /// told (`staff.called`). A call already open is answered as it is, without a second event.
    func callStaff(_ params: FlowParams) throws -> RPCValue {
        let id = params.flow, instant = now()
        return flowValue(id, try change { $0.callStaff(id, now: instant) }.get())
    }

    /// `staff.answer`: a member of staff came (from a staff page: capability `records`). The call is closed
    /// (`staff.answered`) and the participant's inactivity clock starts again; a flow without an open call is
    /// answered as it is.
    func answerStaff(_ params: FlowParams) throws -> RPCValue {
        let id = params.flow, instant = now()
        return flowValue(id, try change { $0.answerStaff(id, now: instant) }.get())
    }
}
