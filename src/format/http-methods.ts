/** The keys of an OpenAPI path item that hold operations. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
