import { encode } from 'uqr'

/**
 * The authenticator app's QR code, drawn here as SVG from the otpauth:// address: the secret never
 * leaves the page for a QR service. Dark on white whatever the colour mode (scanners expect it),
 * with the standard quiet zone of four modules. In a chunk of its own (uqr only loads here).
 */
export default function TotpQr({ url, label }: { url: string; label: string }) {
  const { size, data } = encode(url, { ecc: 'M', border: 4 })
  let path = ''
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    }),
  )
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width="200"
      height="200"
      shapeRendering="crispEdges"
      style={{ background: '#fff', display: 'block' }}
    >
      <path d={path} fill="#000" />
    </svg>
  )
}
