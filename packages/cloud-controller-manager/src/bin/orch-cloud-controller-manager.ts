#!/usr/bin/env node
import { runDaemon } from '@orch/component-base';
import { cloudControllerManagerDaemon } from '../app/cloudControllerManagerDaemon';

void runDaemon(cloudControllerManagerDaemon());
