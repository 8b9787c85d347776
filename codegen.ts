// GraphQL Code Generator (client preset): typed documents for the operations under examples/
// and test/, from the printed schema, and the trusted documents' manifest
// (src/generated/persisted-documents.json: `{ "sha256:<hex>": "<document>" }`, which the gateway
// serves by documentId). `npm run codegen`; a test fails when the output is stale.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['examples/**/*.graphql', 'test/**/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'src/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false, persistedDocuments: true },
      config: {
        // The wire forms of our scalars: IDs are exact decimal strings (or global IDs), never numbers.
        scalars: { ID: 'string', DateTime: 'string', SafeInt: 'number' },
        enumsAsTypes: true,
        useTypeImports: true,
      },
    },
  },
};

export default config;
