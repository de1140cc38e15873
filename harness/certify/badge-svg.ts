/**
 * The certificate's badge: "Engine API 1.18–1.25 | conformant", or "N/M spec checks" where not every
 * spec-level check passed at every version it applies to. A flat badge of two halves, text measured
 * roughly (Verdana 11 px averages 6.5 px a character), self-contained.
 */
import { escapeAttribute, escapeText } from '../report/markup-escape.ts';

const CHARACTER_WIDTH = 6.5;
const PADDING = 10;

export function renderBadge(label: string, message: string, conformant: boolean): string {
  const labelWidth = Math.round(label.length * CHARACTER_WIDTH + PADDING);
  const messageWidth = Math.round(message.length * CHARACTER_WIDTH + PADDING);
  const width = labelWidth + messageWidth;
  const colour = conformant ? '#2e7d32' : '#c62828';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${escapeAttribute(`${label}: ${message}`)}">
<title>${escapeText(`${label}: ${message}`)}</title>
<rect width="${labelWidth}" height="20" fill="#555"/>
<rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${labelWidth / 2}" y="14">${escapeText(label)}</text>
<text x="${labelWidth + messageWidth / 2}" y="14">${escapeText(message)}</text>
</g>
</svg>
`;
}
