/** The port `agent-core studio` listens on unless `--port` says otherwise (0 takes any free one). */
export const defaultStudioPort = 4983;
