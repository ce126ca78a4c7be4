import './register.js';

export { react } from './react.js';
export type { ReactOptions } from './react.js';
export { parseReactReply } from './parse-react-reply.js';
export type { ReactStep } from './parse-react-reply.js';
