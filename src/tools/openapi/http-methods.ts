// The methods an OpenAPI path item may hold (shared with the loader's response-schema warnings).
export { HTTP_METHODS } from "../../format/http-methods.js";
