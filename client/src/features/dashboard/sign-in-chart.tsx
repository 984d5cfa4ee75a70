import type { SignInDay } from '../../../../common/api/dashboard'
import { dashboardMessages } from './dashboard-messages'
import { formatDay } from '../../ui/format-date'

const text = dashboardMessages.dashboard
const WIDTH = 560
const HEIGHT = 180
const AXIS = 22
const TOP = 12

/**
 * Sign-ins per day as paired bars (succeeded, failed), drawn in SVG with CoreUI's colour
 * variables so it follows the colour mode; no chart library. The numbers are also a table for
 * screen readers (the SVG is decorative to them: its summary is the figure's caption).
 */
export function SignInChart({ days }: { days: readonly SignInDay[] }) {
  const highest = Math.max(1, ...days.map((day) => Math.max(day.succeeded, day.failed)))
  const slot = WIDTH / days.length
  const bar = Math.max(2, slot / 2 - 4)
  const scale = (value: number) => ((HEIGHT - AXIS - TOP) * value) / highest
  const total = days.reduce(
    (sum, day) => ({ ok: sum.ok + day.succeeded, failed: sum.failed + day.failed }),
    { ok: 0, failed: 0 },
  )
  const legend = (colour: string, label: string) => (
    <span className="d-flex align-items-center gap-1">
      <svg width="12" height="12" aria-hidden="true">
        <rect width="12" height="12" style={{ fill: colour }} />
      </svg>
      {label}
    </span>
  )
  return (
    <figure className="mb-0">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        aria-hidden="true"
        // Visible overflow: the phone's larger labels reach a little past the drawing's edges.
        style={{ display: 'block', maxHeight: '14rem', overflow: 'visible' }}
      >
        <line
          x1="0"
          x2={WIDTH}
          y1={HEIGHT - AXIS}
          y2={HEIGHT - AXIS}
          style={{ stroke: 'var(--cui-border-color)' }}
        />
        <text
          x="0"
          y={TOP - 2}
          className="painel-chart-label"
          style={{ fill: 'var(--cui-secondary-color)' }}
        >
          {highest}
        </text>
        {days.map((day, index) => {
          const x = index * slot + slot / 2
          return (
            <g key={day.day}>
              <rect
                x={x - bar - 1}
                y={HEIGHT - AXIS - scale(day.succeeded)}
                width={bar}
                height={scale(day.succeeded)}
                style={{ fill: 'var(--cui-success)' }}
              />
              <rect
                x={x + 1}
                y={HEIGHT - AXIS - scale(day.failed)}
                width={bar}
                height={scale(day.failed)}
                style={{ fill: 'var(--cui-danger)' }}
              />
              {index % 2 === days.length % 2 && (
                <text
                  x={x}
                  y={HEIGHT - 6}
                  textAnchor="middle"
                  className="painel-chart-label"
                  style={{ fill: 'var(--cui-secondary-color)' }}
                >
                  {formatDay(day.day)}
                </text>
              )}
            </g>
          )
        })}
      </svg>
      <figcaption className="d-flex flex-wrap gap-3 small mt-2">
        {legend('var(--cui-success)', text.succeeded)}
        {legend('var(--cui-danger)', text.failed)}
        <span>{text.chartSummary(total.ok, total.failed)}</span>
      </figcaption>
      <table className="visually-hidden">
        <caption>{text.chartTable}</caption>
        <thead>
          <tr>
            <th scope="col">{text.day}</th>
            <th scope="col">{text.succeeded}</th>
            <th scope="col">{text.failed}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{formatDay(day.day)}</th>
              <td>{day.succeeded}</td>
              <td>{day.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
