/**
 * Charts drawn by the server as inline SVG: horizontal bars (one per category), a histogram (columns over ordered
 * bins) and a share bar (one bar split into parts). No script and no inline style (the page CSP forbids both): sizes
 * are SVG attributes, colours CSS classes of app.css (`.chart .bar`, `.chart .bar.alt`, `.chart .bar.rest`, …).
 * Every chart is `role="img"` named by its `<title>` and described by its `<desc>`; the page prints the same numbers
 * in a table beside it, so readers without pictures or CSS get them too. Text is escaped by JSX (labels are names
 * from the release: they may hold `<`, `&` and quotes).
 */
import type { VNode } from 'preact';
import { formatNumber as number, formatPercent } from './page-parts.js';

const WIDTH = 640;

export interface ChartDatum {
  label: string;
  value: number;
  /** Extra class of the bar (`alt`, `rest`, a band name). */
  tone?: string;
}

interface ChartFrame {
  /** Base of the element ids (`${id}-title`, `${id}-desc`): unique on the page. */
  id: string;
  title: string;
  /** What the chart shows, in words (the table below has the numbers). */
  description: string;
  /** How a value is printed next to its bar (default: grouped integer). */
  format?: (value: number) => string;
}

/** Shortens a label to about `max` characters for the drawing (the table beside it has the full text). */
export function clip(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, Math.max(1, max - 1))}…`;
}

function Frame({ id, title, description, width, height, children }: { id: string; title: string; description: string; width: number; height: number; children: VNode[] | VNode }): VNode {
  return (
    <svg
      class="chart"
      id={id}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      xmlns="http://www.w3.org/2000/svg"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {children}
    </svg>
  );
}

/** One horizontal bar per datum, in the given order, scaled to the largest value (or to `max`). */
export function BarChart(props: ChartFrame & { data: ChartDatum[]; max?: number; labelWidth?: number }): VNode {
  const { data, format = number } = props;
  const labelWidth = props.labelWidth ?? 190;
  const valueWidth = 90;
  const row = 22;
  const top = 6;
  const plot = WIDTH - labelWidth - valueWidth;
  const max = Math.max(props.max ?? 0, ...data.map((d) => d.value), 0);
  const height = top * 2 + row * Math.max(1, data.length);
  return (
    <Frame id={props.id} title={props.title} description={props.description} width={WIDTH} height={height}>
      {[
        <line class="axis" x1={labelWidth} y1={top - 2} x2={labelWidth} y2={height - top + 2} />,
        ...data.map((d, i) => {
          const y = top + i * row;
          const w = max > 0 ? Math.max(d.value > 0 ? 1 : 0, Math.round((d.value / max) * plot)) : 0;
          return (
            <g class="datum">
              <text x={labelWidth - 6} y={y + 15} text-anchor="end">
                {clip(d.label, Math.floor(labelWidth / 7))}
              </text>
              <rect class={d.tone ? `bar ${d.tone}` : 'bar'} x={labelWidth} y={y + 3} width={w} height={row - 6} />
              <text x={labelWidth + w + 4} y={y + 15}>
                {format(d.value)}
              </text>
            </g>
          );
        }),
      ]}
    </Frame>
  );
}

/** Columns over ordered bins (depths, confidence ranges, years), scaled to the tallest; every few bin labels under the axis. */
export function Histogram(props: ChartFrame & { data: ChartDatum[]; xLabel: string }): VNode {
  const { data, format = number } = props;
  const left = 56;
  const bottom = 40;
  const top = 18;
  const plotHeight = 160;
  const height = top + plotHeight + bottom;
  const plot = WIDTH - left - 10;
  const slot = plot / Math.max(1, data.length);
  const gap = slot > 6 ? Math.min(4, slot * 0.15) : 0;
  const max = Math.max(0, ...data.map((d) => d.value));
  // Label at most about 16 bins so that the labels do not run into each other.
  const labelEvery = Math.max(1, Math.ceil(data.length / 16));
  const baseline = top + plotHeight;
  return (
    <Frame id={props.id} title={props.title} description={props.description} width={WIDTH} height={height}>
      {[
        <line class="axis" x1={left} y1={baseline} x2={WIDTH - 10} y2={baseline} />,
        <line class="axis" x1={left} y1={top} x2={left} y2={baseline} />,
        <text x={left - 6} y={top + 4} text-anchor="end">
          {format(max)}
        </text>,
        <text x={left - 6} y={baseline} text-anchor="end">
          0
        </text>,
        ...data.map((d, i) => {
          const h = max > 0 ? Math.max(d.value > 0 ? 1 : 0, Math.round((d.value / max) * plotHeight)) : 0;
          const x = left + i * slot;
          return (
            <g class="datum">
              <rect class={d.tone ? `bar ${d.tone}` : 'bar'} x={round(x + gap / 2)} y={baseline - h} width={round(Math.max(1, slot - gap))} height={h}>
                <title>{`${d.label}: ${format(d.value)}`}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text x={round(x + slot / 2)} y={baseline + 14} text-anchor="middle">
                  {clip(d.label, 9)}
                </text>
              ) : null}
            </g>
          );
        }),
        <text x={left + plot / 2} y={height - 6} text-anchor="middle">
          {props.xLabel}
        </text>,
      ]}
    </Frame>
  );
}

/** One bar split into parts (e.g. mapped / not mapped), with a legend of each part's value and share. */
export function ShareBar(props: ChartFrame & { data: ChartDatum[] }): VNode {
  const { data, format = number } = props;
  const total = data.reduce((n, d) => n + Math.max(0, d.value), 0);
  const left = 10;
  const plot = WIDTH - 2 * left;
  const legendTop = 44;
  const height = legendTop + 20 * data.length + 4;
  let x = left;
  const parts = data.map((d) => {
    const w = total > 0 ? (Math.max(0, d.value) / total) * plot : 0;
    const part = <rect class={d.tone ? `bar ${d.tone}` : 'bar'} x={round(x)} y={8} width={round(w)} height={26} />;
    x += w;
    return part;
  });
  return (
    <Frame id={props.id} title={props.title} description={props.description} width={WIDTH} height={height}>
      {[
        <rect class="frame" x={left} y={8} width={plot} height={26} />,
        ...parts,
        ...data.map((d, i) => (
          <g class="legend">
            <rect class={d.tone ? `bar ${d.tone}` : 'bar'} x={left} y={legendTop + i * 20} width={12} height={12} />
            <text x={left + 18} y={legendTop + i * 20 + 11}>
              {`${d.label}: ${format(d.value)}${total > 0 ? ` (${share(d.value, total)} %)` : ''}`}
            </text>
          </g>
        )),
      ]}
    </Frame>
  );
}

const round = (x: number) => Math.round(x * 10) / 10;

/** part / whole as a percentage with one decimal. */
export function share(part: number, whole: number): string {
  return whole > 0 ? (Math.round((part / whole) * 1000) / 10).toFixed(1) : '0.0';
}

/** One bar split into the concepts mapped to another concept and those not mapped. */
export function MappedShareBar({ mapped, unmapped, ...frame }: ChartFrame & { mapped: number; unmapped: number }): VNode {
  return (
    <ShareBar
      {...frame}
      data={[
        { label: 'Mapped', value: mapped, tone: 'standard' },
        { label: 'Not mapped', value: unmapped, tone: 'rest' },
      ]}
    />
  );
}

/** Horizontal bars of percentages (0 to 100, printed as such), one per datum, in the alternate colour. */
export function PercentBarChart({ data, ...frame }: Omit<ChartFrame, 'format'> & { data: Array<{ label: string; value: number }> }): VNode {
  return <BarChart {...frame} data={data.map((d) => ({ ...d, tone: 'alt' }))} max={100} format={(v) => formatPercent(v)} />;
}
