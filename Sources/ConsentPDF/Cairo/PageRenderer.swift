/// Draws one page's placements on the PDF context.
struct PageRenderer {
    let context: CairoContext
    let measurer: PangoMeasurer

    func draw(_ placements: [Placement]) {
        for placement in placements {
            switch placement {
            case .text(let handle, let x, let lines, let role):
                guard let layout = measurer.layout(handle) else { continue }
                context.setGrey(StyleSheet.style(for: role).grey)
                for line in lines {
                    layout.drawLine(line.index, x: x, baseline: line.baseline, on: context)
                }
            case .image(let handle, let rect):
                if let image = measurer.image(handle) { context.draw(image, in: rect) }
            case .rule(let x, let y, let width):
                context.setGrey(0)
                context.useSquarePen()
                context.setLineWidth(0.75)
                context.move(to: x, y)
                context.line(to: x + width, y)
                context.stroke()
            case .frame(let rect):
                context.setGrey(0.6)
                context.useSquarePen()
                context.setLineWidth(0.5)
                context.rectangle(rect)
                context.stroke()
            case .strokes(let strokes, let rect):
                StrokePainter.draw(strokes, in: rect, baseWidth: max(0.8, rect.height * 0.025), on: context)
            }
        }
    }
}
