// A stand-in for DNS in a spawned Stepgate, loaded with
// NODE_OPTIONS=--import <this file>: names listed in STEPGATE_TEST_DNS (JSON,
// name -> addresses) resolve to those addresses; every other name fails as
// unknown, so no test asks a real resolver. Stepgate's resolver reads
// dns.promises.lookup at call time, which is what this replaces.
import dns from "node:dns";
import process from "node:process";

const table = JSON.parse(process.env.STEPGATE_TEST_DNS ?? "{}");

dns.promises.lookup = async (hostname, options = {}) => {
  const addresses = table[hostname.toLowerCase()];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
  const all = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  return options.all ? all : all[0];
};
