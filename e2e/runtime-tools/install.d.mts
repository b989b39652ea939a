export declare const toolsDir: string
export declare function toolBin(name: string): string
export declare function installRuntimeTools(): Promise<void>
