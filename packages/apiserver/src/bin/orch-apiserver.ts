#!/usr/bin/env node
import { runDaemon } from '@orch/component-base';
import { apiserverFlagSets } from '../app/apiserver-flags';
import { runAPIServer } from '../app/run-apiserver';

void runDaemon({
  name: 'orch-apiserver',
  description:
    "The orch API server validates and configures data for the api objects which include pods, services, replicationcontrollers, and others. The API Server services REST operations and provides the frontend to the cluster's shared state through which all other components interact.",
  flagSets: apiserverFlagSets(),
  servesItself: true,
  run: runAPIServer,
});
