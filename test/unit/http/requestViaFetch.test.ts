// request.test.ts again, every request through the global fetch (as to a remote service) instead of node's
// client (loopback.ts): its servers are on 127.0.0.1, which would otherwise never take that way.
// (require, not import: an import is hoisted above the line that sets the variable.)
process.env.SERVERLESS_GPU_TEST_VIA_FETCH = '1';
require('./request.test');
