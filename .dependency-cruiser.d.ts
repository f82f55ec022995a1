import type { IConfiguration } from 'dependency-cruiser';

/** folder or top-level module of src/ → what it may import besides itself (.dependency-cruiser.js). */
export declare const LAYERS: Record<string, { imports: string[]; types?: string[] }>;
export declare const PURE_CORES: string[];
export declare const CORE_BUILTINS: string[];
export declare const CORE_PACKAGES: string[];
declare const config: IConfiguration;
export default config;
