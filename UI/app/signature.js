// The signing canvas: ink from the pad (ink.points events) or drawn on the screen with Pointer Events (pen,
// touch or mouse; pressure when the browser reports it). Points are kept in the project's stroke format
// ([x, y, t, p], x and y 0…1 from the top-left of the signing area, t ms since the first point).
export class SignatureCanvas {
  constructor({ area, role }) {
    this.widthMM = area?.widthMM ?? 120;
    this.heightMM = area?.heightMM ?? 40;
    this.aspect = area?.aspect ?? this.widthMM / this.heightMM;
    this.role = role;
    this.canvas = document.createElement('canvas');
    this.canvas.dataset.signature = role ?? 'participant';
    this.canvas.className = 'signature';
    this.applyAspect();
    this.strokes = [];        // drawn on the screen
    this.padStrokes = [];     // echoed from the pad
    this.padPainted = [];     // how many points of each pad stroke are on the canvas
    this.paintRequested = false;
    this.onPaint = null;      // (rAF timestamp, pad points painted in that frame): for make bench
    this.origin = null;
    this.drawnOnScreen = false;
    this.onChange = () => {};
    this.active = new Map();
    this.bind();
    new ResizeObserver(() => this.resize()).observe(this.canvas);
  }

  /// The pad's active area once a capture runs on it: the canvas takes its aspect, so ink lands where it was drawn.
  setArea(area) {
    if (!area?.widthMM || !area?.heightMM) return;
    this.widthMM = area.widthMM;
    this.heightMM = area.heightMM;
    this.aspect = area.aspect ?? area.widthMM / area.heightMM;
    this.applyAspect();
  }

  /// The signing area's true shape, as large as fits in its frame (style.css .signature-frame, a size container
  /// that takes the screen's height left by the instruction and the buttons, so the whole area is on screen at
  /// every text size): the frame's full width, unless that would be taller than the frame, then narrower.
  applyAspect() {
    this.canvas.style.aspectRatio = String(this.aspect);
    this.canvas.style.width = `min(100cqw, calc(100cqh * ${this.aspect}))`;
  }

  get isEmpty() { return this.strokes.length === 0 && this.padStrokes.length === 0; }

  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const scale = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(rect.width * scale));
    this.canvas.height = Math.max(1, Math.round(rect.height * scale));
    this.redraw();
  }

  bind() {
    const c = this.canvas;
    c.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      c.setPointerCapture(event.pointerId);
      const stroke = [this.point(event)];
      this.strokes.push(stroke);
      this.active.set(event.pointerId, stroke);
      this.drawnOnScreen = true;
      this.redraw();
      this.onChange();
    });
    c.addEventListener('pointermove', (event) => {
      const stroke = this.active.get(event.pointerId);
      if (!stroke) return;
      event.preventDefault();
      const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
      for (const e of events.length ? events : [event]) stroke.push(this.point(e));
      this.redraw();
    });
    const end = (event) => { this.active.delete(event.pointerId); };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
  }

  point(event) {
    const rect = this.canvas.getBoundingClientRect();
    const now = event.timeStamp;
    if (this.origin === null) this.origin = now;
    const x = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width));
    const y = Math.min(1, Math.max(0, (event.clientY - rect.top) / rect.height));
    // Pressure only from pens; a mouse reports 0.5 while pressed and touch often a constant.
    const p = event.pointerType === 'pen' && event.pressure > 0 ? Math.round(event.pressure * 1000) / 1000 : null;
    return [round(x), round(y), Math.max(0, Math.round(now - this.origin)), p];
  }

  /// ink.points from the pad: append to stroke `stroke`, painted in the next animation frame. A pen reports
  /// 100-1000 frames a second and the screen shows 60: each frame paints only the segments that arrived since the
  /// last, so a long signature costs no more per frame than a short one.
  addPadPoints(stroke, points) {
    while (this.padStrokes.length <= stroke) this.padStrokes.push([]);
    this.padStrokes[stroke].push(...points);
    this.onChange();
    if (this.paintRequested) return;
    this.paintRequested = true;
    requestAnimationFrame((time) => this.paintNewPadPoints(time));
  }

  paintNewPadPoints(time) {
    this.paintRequested = false;
    const context = this.canvas.getContext('2d');
    const painted = [];
    this.padStrokes.forEach((stroke, index) => {
      const from = this.padPainted[index] ?? 0;
      if (from >= stroke.length) return;
      this.drawStroke(context, stroke, from);
      for (let i = from; i < stroke.length; i++) painted.push(stroke[i]);
      this.padPainted[index] = stroke.length;
    });
    // For measurements (make bench): which pad points this animation frame painted, with its timestamp.
    this.onPaint?.(time, painted);
  }

  clear() {
    this.strokes = [];
    this.padStrokes = [];
    this.origin = null;
    this.drawnOnScreen = false;
    this.active.clear();
    this.redraw();
    this.onChange();
  }

  strokesForSubmit() {
    return { strokes: this.strokes.filter((s) => s.length > 0), widthMM: this.widthMM, heightMM: this.heightMM };
  }

  redraw() {
    const context = this.canvas.getContext('2d');
    const { width, height } = this.canvas;
    context.clearRect(0, 0, width, height);
    context.strokeStyle = '#c8ced6';
    context.lineWidth = Math.max(1, height / 200);
    context.beginPath();
    context.moveTo(width * 0.05, height * 0.8);
    context.lineTo(width * 0.95, height * 0.8);
    context.stroke();
    for (const stroke of [...this.padStrokes, ...this.strokes]) this.drawStroke(context, stroke, 0);
    this.padPainted = this.padStrokes.map((stroke) => stroke.length);
  }

  /// The segments of `stroke` that end at its points `from`... (a point alone is a dot).
  drawStroke(context, stroke, from) {
    const { width, height } = this.canvas;
    context.strokeStyle = '#0b2a5b';
    context.lineCap = 'round';
    context.lineJoin = 'round';
    for (let i = from; i < stroke.length; i++) {
      const [x, y, , p] = stroke[i];
      const [px, py] = i === 0 ? [x, y] : stroke[i - 1];
      context.lineWidth = Math.max(2, (height / 60) * (p === null || p === undefined ? 0.6 : 0.3 + p));
      context.beginPath();
      context.moveTo(px * width, py * height);
      context.lineTo(x * width + (i === 0 ? 0.1 : 0), y * height);
      context.stroke();
    }
  }
}

function round(value) { return Math.round(value * 10000) / 10000; }
