import { useId, type ReactNode } from 'react'

/**
 * A checkbox or radio with its label beside it, on the stylesheet's `form-check-input` alone:
 * CoreUI's CFormCheck names three more rule families of its own (the wrapper, its reverse and
 * its label), which the purged stylesheet every screen loads would keep for this one use
 * (scripts/build/purge-css.ts keeps what any source names).
 */
export function CheckField({
  type = 'checkbox',
  name,
  value,
  checked,
  onChange,
  label,
  describedBy,
}: {
  type?: 'checkbox' | 'radio'
  name: string
  value?: string
  checked: boolean
  onChange: (checked: boolean) => void
  label: ReactNode
  describedBy?: string
}) {
  const id = useId()
  return (
    <div className="d-flex align-items-start gap-2 mb-1">
      <input
        id={id}
        type={type}
        name={name}
        value={value}
        className="form-check-input"
        checked={checked}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  )
}
