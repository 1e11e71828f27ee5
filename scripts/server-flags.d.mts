export declare const SERVER_NODE_FLAGS: string[];
export declare function runWithServerFlags(script: string, main: () => unknown): Promise<unknown>;
