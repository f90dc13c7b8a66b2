// The seed: every request carries `User-Agent: stepgate/<version>`, followed
// by the --contact email when one is set. It goes as a `mailto:` URI in the
// comment, `stepgate/<version> (mailto:<email>)`: Crossref and Wikimedia ask
// for a contact in exactly that form (their "polite" pool and User-Agent
// policy), and APIs that only want an email somewhere in the header (SEC
// EDGAR, USAJOBS) still find it there.

export function userAgent(version: string, contact?: string): string {
  return contact ? `stepgate/${version} (mailto:${contact})` : `stepgate/${version}`;
}
