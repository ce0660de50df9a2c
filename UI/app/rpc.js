// One JSON-RPC 2.0 connection to consentd through one of consentweb's WebSockets (/rpc for the kiosk's page,
// /staff/rpc for the staff page): one text frame per line.
// Negotiates, subscribes, matches replies by id, hands events to listeners, and reconnects when the
// connection goes (agent.stopping, agent restarted, bridge restarted).

export class AgentError extends Error {
  constructor(error) {
    super(error?.message ?? 'error');
    this.type = error?.data?.type ?? 'InternalError';
    this.data = error?.data ?? {};
  }
}

export class ConnectionLost extends Error {
  constructor() { super('connection lost'); this.type = 'ConnectionLost'; }
}

export class Agent {
  // capabilities: the least the page needs (consentweb grants no more than its endpoint's own anyway).
  constructor({ client, topics, capabilities, path = '/rpc' }) {
    this.client = client;
    this.topics = topics;
    this.capabilities = capabilities;
    this.path = path;
    // The token: the page's own ?token=…, kept here and taken out of the address (and so out of the history) at
    // once; without it, the HttpOnly cookie the bridge set when the page was loaded with it.
    const query = new URLSearchParams(window.location.search);
    this.token = query.get('token');
    if (this.token) {
      query.delete('token');
      const rest = query.toString();
      window.history.replaceState(null, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
    }
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    this.stateListeners = [];
    this.state = 'connecting';
    this.hello = null;
    this.socket = null;
    this.retryMs = 500;
  }

  on(method, handler) {
    if (!this.listeners.has(method)) this.listeners.set(method, []);
    this.listeners.get(method).push(handler);
  }

  onState(handler) { this.stateListeners.push(handler); }

  setState(state, detail) {
    this.state = state;
    for (const handler of this.stateListeners) handler(state, detail);
  }

  connect() {
    const url = new URL(this.path, window.location.href);
    url.protocol = 'ws:';
    url.search = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    this.setState('connecting');
    const socket = new WebSocket(url.href);
    this.socket = socket;
    let opened = false;
    socket.addEventListener('open', () => { opened = true; });
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const { reject } of this.pending.values()) reject(new ConnectionLost());
      this.pending.clear();
      this.setState('disconnected', { opened, code: event.code });
      const delay = opened ? 500 : this.retryMs;
      this.retryMs = opened ? 500 : Math.min(this.retryMs * 2, 5000);
      setTimeout(() => this.connect(), delay);
    });
  }

  async receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (message.method === 'hello') {
      this.hello = message.params;
      try {
        await this.call('session.negotiate', { client: this.client, version: 1, capabilities: this.capabilities });
        const subscribed = await this.call('events.subscribe', { topics: this.topics });
        this.retryMs = 500;
        this.setState('ready', subscribed.snapshot);
      } catch (error) {
        this.setState('failed', error);
      }
      return;
    }
    if ('id' in message && (message.result !== undefined || message.error !== undefined)) {
      if (message.id === null && message.error?.data?.type === 'PeerRefused') {
        this.setState('refused', message.error.data);
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new AgentError(message.error));
      else waiting.resolve(message.result);
      return;
    }
    if (message.method) {
      const data = message.params?.data;
      for (const handler of this.listeners.get(message.method) ?? []) handler(data, message.params);
    }
  }

  call(method, params = {}) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return Promise.reject(new ConnectionLost());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }
}
