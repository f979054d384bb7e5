#!/usr/bin/env node
import { runDaemon } from '@orch/component-base';
import { nodeAgentDaemon } from '../app/nodeAgentDaemon';

void runDaemon(nodeAgentDaemon());
