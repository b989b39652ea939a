export declare function withDirectoryLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T>
