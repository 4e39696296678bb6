// The packages the reranker learns from, all from train/manifest.json's `training` list (never a
// bench:search dev corpus, django, or an evaluation package: `evaluationReason` refuses those).
//
// HELD_OUT: the packages the code-search model's data step held out for validation
// (docs/results/train-data-ts.json `pairs.validationPackages`, cartograph-code-search-v4 and v5): the shipped model never trained
// on them, so the cosine it gives their functions is what it gives a user's code. Only they train the weight set that
// uses the model's scores; with a new model, pass the packages its own data step held out (`--held-out`). Left out:
// the held-out packages the data step reads file by file (`licenseScope: "files"`: pyface, statsmodels, torch,
// vispy), since the reranker indexes whole packages, and ox, held out while viem, which shares much of its code, was
// trained on (its cosines would be flattered). OTHERS: packages the model did train on (their cosines are
// flattered), used only for the model-free weight set, which has no cosine feature. Neither list may name an
// evaluation package or a benchmark corpus (attr, httpx, marshmallow and mobx became bench:context corpora).
export const HELD_OUT = [
  '@antv/g2', '@azure/msal-node', '@deck.gl/carto', '@feathersjs/authentication', '@fluidframework/container-definitions',
  '@fluidframework/datastore', '@fluidframework/datastore-definitions', '@fluidframework/local-driver',
  '@fluidframework/merge-tree', '@fluidframework/odsp-doclib-utils', '@fluidframework/runtime-utils',
  '@fluidframework/server-services-client', '@fluidframework/tree', '@helia/interface', '@helia/ipns', '@jupyterlab/attachments',
  '@jupyterlab/fileeditor', '@jupyterlab/notebook', '@jupyterlab/pluginmanager', '@jupyterlab/toc', '@libp2p/peer-collections',
  '@loaders.gl/images', '@loaders.gl/textures', '@loopback/pooling', '@luma.gl/core', '@lumino/commands', '@lumino/dragdrop',
  '@math.gl/culling', '@noble/ed25519', '@scure/bip39', '@shopify/flash-list', '@stacks/common', '@tanstack/form-core',
  '@tanstack/query-persist-client-core', '@tanstack/react-query', '@tanstack/solid-query', 'aws-amplify', 'botbuilder-dialogs',
  'expo', 'expo-calendar', 'expo-video', 'ipns', 'python3-aodh', 'python3-arrow', 'python3-cloudkittyclient',
  'python3-distributed', 'python3-emcee', 'python3-freezer', 'python3-ginga', 'python3-heat', 'python3-invoke',
  'python3-ipython', 'python3-libcloud', 'python3-nbconvert', 'python3-octavia', 'python3-openstackclient',
  'python3-os-client-config', 'python3-oslo.context', 'python3-oslo.reports', 'python3-pendulum', 'python3-psutil',
  'python3-skbio', 'python3-tempest', 'python3-troveclient', 'python3-zaqarclient', 'react-native-vision-camera', 'zrender',
];

export const OTHERS = [
  'python3-tornado', 'python3-dateutil', 'python3-urllib3', 'python3-more-itertools', 'python3-toolz', 'python3-parso',
  'python3-traitlets', 'python3-rich', 'python3-redis', 'python3-webob', 'python3-bottle', 'python3-mako', 'python3-sqlparse',
  'python3-wtforms', 'python3-jsonschema', 'python3-pexpect', 'python3-oauthlib',
  'python3-humanize', 'python3-cachetools', 'python3-fabric', 'python3-starlette', 'python3-cattr', 'python3-websockets',
  'python3-markdown-it', 'python3-stevedore', 'python3-anyio', 'python3-pyrsistent', 'python3-sortedcontainers', 'python3-geopy',
  'python3-cliff', 'redux', 'immer', '@tanstack/query-core', 'ajv',
];
