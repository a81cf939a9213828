// Just enough of autocannon 8's programmatic API for bench/load.ts (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface RequestData {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Request extends RequestData {
      setupRequest?: (request: RequestData & { headers: Record<string, string> }, context: Record<string, unknown>) => RequestData | null;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      pipelining?: number;
      timeout?: number;
      headers?: Record<string, string>;
      requests?: Request[];
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      sent?: number;
    }

    interface Result {
      url: string;
      connections: number;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram;
      throughput: Histogram;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
