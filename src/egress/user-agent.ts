// The seed: every request carries `User-Agent: stepgate/<version>`, followed
// by the --contact email when one is set (SEC EDGAR and USAJOBS want one).

export function userAgent(version: string, contact?: string): string {
  return contact ? `stepgate/${version} (+${contact})` : `stepgate/${version}`;
}
