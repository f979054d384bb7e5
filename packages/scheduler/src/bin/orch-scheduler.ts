#!/usr/bin/env node
import { runDaemon } from '@orch/component-base';
import { schedulerDaemon } from '../app/schedulerDaemon';

void runDaemon(schedulerDaemon());
